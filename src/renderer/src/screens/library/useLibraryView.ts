/**
 * What the library shows (sort, filter, search, year range and its sense, clues counted), as the
 * archivist types it and as the grid asks for it (debounced, and a year range main would refuse is
 * not asked for). It survives a visit to Jobs or Settings: it starts from, and is kept in, the session.
 */
import { useEffect, useMemo, useState } from 'react';
import type { SessionStore } from '../../session/session';
import type { PhotoFilter, PhotoSort, YearMode } from './labels';
import { useDebounced } from './useDebounced';

/** A year typed in the range filter: a whole number in what main accepts, or nothing. */
function parseYear(text: string): number | undefined | 'invalid' {
  const t = text.trim();
  if (!t) return undefined;
  const n = Number(t);
  return Number.isInteger(n) && n >= 1000 && n <= 2999 ? n : 'invalid';
}

/** What is wrong with the year range as typed, or null. */
function yearsProblem(fromText: string, toText: string): string | null {
  const from = parseYear(fromText);
  const to = parseYear(toText);
  if (from === 'invalid' || to === 'invalid') return 'Years are whole numbers like 1935.';
  if (from !== undefined && to !== undefined && from > to) return `From ${from} is after to ${to}: swap them to see photos.`;
  return null;
}

export function useLibraryView(session: SessionStore) {
  const [remembered] = useState(() => session.get().libraryView);
  const [sort, setSort] = useState<PhotoSort>(remembered.sort);
  const [filter, setFilter] = useState<PhotoFilter>(remembered.filter);
  const [searchText, setSearchText] = useState(remembered.search);
  const search = useDebounced(searchText, 250);
  const [yearFromText, setYearFromText] = useState(remembered.yearFrom);
  const [yearToText, setYearToText] = useState(remembered.yearTo);
  const [yearMode, setYearMode] = useState<YearMode>(remembered.yearMode);
  const [includeClues, setIncludeClues] = useState(remembered.includeClues);
  // The two ends settle together: clearing (or typing) both never asks main for the half-done
  // range in between ('…–1999' after From was cleared and before To was), whose rows would replace
  // the grid under a selection and a bulk action for a moment.
  const typedYears = JSON.stringify([yearFromText, yearToText]);
  const settledYears = useDebounced(typedYears, 300);
  const [debouncedFrom, debouncedTo] = JSON.parse(settledYears) as [string, string];
  // A range main would refuse (inverted, not a year) is not asked for: the message says why.
  const yearsUsable = yearsProblem(debouncedFrom, debouncedTo) === null;
  const yearFrom = yearsUsable ? (parseYear(debouncedFrom) as number | undefined) : undefined;
  const yearTo = yearsUsable ? (parseYear(debouncedTo) as number | undefined) : undefined;
  const yearsBad = yearsProblem(yearFromText, yearToText);
  const yearsActive = yearFrom !== undefined || yearTo !== undefined;
  useEffect(() => {
    session.set({
      libraryView: { sort, filter, search: searchText, yearFrom: yearFromText, yearTo: yearToText, yearMode, includeClues },
    });
  }, [session, sort, filter, searchText, yearFromText, yearToText, yearMode, includeClues]);

  const query = useMemo(
    () => ({ sort, filter, search, yearFrom, yearTo, yearMode, includeClues }),
    [sort, filter, search, yearFrom, yearTo, yearMode, includeClues],
  );
  /** What was typed is not yet what is asked for (search or years still settling). */
  const settling = search !== searchText || settledYears !== typedYears;
  return {
    settling,
    sort,
    setSort,
    filter,
    setFilter,
    searchText,
    setSearchText,
    search,
    yearFromText,
    setYearFromText,
    yearToText,
    setYearToText,
    yearMode,
    setYearMode,
    includeClues,
    setIncludeClues,
    yearFrom,
    yearTo,
    yearsBad,
    yearsActive,
    query,
  };
}
