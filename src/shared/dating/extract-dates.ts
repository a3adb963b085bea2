// Finds the dates in free text from a photograph: OCR of a caption, a postmark,
// a note on the back of a print. Each rule module proposes candidates; this
// module qualifies them, vetoes the ones that are not dates, keeps them inside
// the photographic era, resolves overlaps, and says which dates are of the
// object's use rather than of the picture (date-use.ts).
import type { FoundDate } from './types';
import { dayCount, MAX_YEAR } from './daynum';
import { attachApproximateMarkers } from './approximate-markers';
import { attachBoundWords } from './bound-words';
import { findArchivalDates } from './archival-dates';
import {
  findCenturies,
  findDecades,
  findDecadesInWords,
  findTwoDigitDecades,
  findUnknownDigitYears,
} from './decade-century-expressions';
import type { DateRule, ExtractionContext } from './extraction-kit';
import { classifyUse } from './date-use';
import { toEdtf } from './format';
import type { NumericDateOrder } from './notation-conventions';
import { isInNonDateContext } from './not-a-date';
import { findNumericDates, findNumericMonthYears, findRomanMonthDates } from './numeric-dates';
import { currentYear, FIRST_PHOTOGRAPH_YEAR, fitToPhotoEra } from './photo-era';
import { findHolidays, findSeasons, findWintersAcrossYears } from './season-holiday-expressions';
import { findMonthSpans, findMonthWithApostropheYear, findWrittenDates } from './written-dates';
import { findApostropheYears, findOpenEndedYears, findYearRanges, findYears } from './year-expressions';

export interface ExtractDatesOptions {
  /** Latest plausible year, and pivot for two-digit years. Default: the current year. */
  referenceYear?: number;
  /** How the library reads numeric dates such as 7/4/1906 (Settings). Default: undecided. */
  dateOrder?: NumericDateOrder;
}

/**
 * Every reader, one family of notation each. This list is the one place extraction calls out to
 * readers: another reader (named events and periods, "V-E Day", "between the wars") is added here
 * as a DateRule, and its readings are qualified, vetoed, fitted to the photographic era and
 * resolved against the others like any reader's. Earlier readers win a tie over the same text.
 */
const RULES: DateRule[] = [
  findArchivalDates,
  findWrittenDates,
  findMonthWithApostropheYear,
  findMonthSpans,
  findNumericDates,
  findNumericMonthYears,
  findRomanMonthDates,
  findHolidays,
  findSeasons,
  findWintersAcrossYears,
  findDecades,
  findTwoDigitDecades,
  findDecadesInWords,
  findUnknownDigitYears,
  findCenturies,
  findYearRanges,
  findOpenEndedYears,
  findApostropheYears,
  findYears,
];

/**
 * When candidates overlap, the most specific wins: the one that explains the
 * most text ("June 12, 1947" over "1947", "1935-1942" over "1935"), then the
 * earlier rule in RULES (archival-dates.ts reads a whole expression, "1906 July 4-10",
 * where chrono reads "1906 July 4" over the same text), then the narrower interval,
 * then the more confident reading.
 */
interface Candidate extends FoundDate {
  rule: number;
  /** Position among all candidates, as the rules returned them. */
  seq: number;
}

function moreSpecificFirst(a: Candidate, b: Candidate): number {
  return (
    b.text.length - a.text.length ||
    a.rule - b.rule ||
    dayCount(a.earliest, a.latest) - dayCount(b.earliest, b.latest) ||
    b.confidence - a.confidence ||
    a.index - b.index
  );
}

function overlaps(a: FoundDate, b: FoundDate): boolean {
  return a.index < b.index + b.text.length && b.index < a.index + a.text.length;
}

/** `inner`'s text lies inside `outer`'s. */
function within(inner: FoundDate, outer: FoundDate): boolean {
  return inner.index >= outer.index && inner.index + inner.text.length <= outer.index + outer.text.length;
}

/** The dates of one list ("4 & 5 July 1906") share their text and stand together. */
function sameList(a: FoundDate, b: FoundDate): boolean {
  return a.set !== undefined && a.set === b.set && a.index === b.index && a.text === b.text;
}

function keepMostSpecific(candidates: Candidate[]): FoundDate[] {
  const kept: Candidate[] = [];
  for (const candidate of [...candidates].sort(moreSpecificFirst)) {
    if (!kept.some((other) => overlaps(other, candidate) && !sameList(other, candidate))) kept.push(candidate);
  }
  // A list's dates share their index: they stay in the order written.
  return kept.sort((a, b) => a.index - b.index || a.seq - b.seq).map(({ rule: _rule, seq: _seq, ...found }) => found);
}

/** Readers that do not write their own EDTF get the interval's, at the precision found. */
function withEdtf(found: FoundDate): FoundDate {
  if (found.edtf) return found;
  return { ...found, edtf: toEdtf(found.earliest, found.latest, { approximate: found.approximate, precision: found.precision }) };
}

export function extractDates(text: string, options: ExtractDatesOptions = {}): FoundDate[] {
  const referenceYear = options.referenceYear ?? currentYear();
  if (!Number.isInteger(referenceYear) || referenceYear < FIRST_PHOTOGRAPH_YEAR || referenceYear > MAX_YEAR) {
    throw new RangeError(`referenceYear must be a whole year from ${FIRST_PHOTOGRAPH_YEAR} to ${MAX_YEAR}: ${referenceYear}`);
  }
  const context: ExtractionContext = { referenceYear, dateOrder: options.dateOrder ?? 'undecided' };
  // A date a bound word puts outside the photographic era ('after Dec. 31, 2026') is no date, nor is any part of it.
  const noDate: FoundDate[] = [];
  const candidates = RULES.flatMap((rule, rank) => rule(text, context).map((found) => ({ ...found, rule: rank })))
    .map((found, seq) => ({ ...found, seq }))
    .flatMap((found) => attachBoundWords(text, found, referenceYear) ?? (noDate.push(found), []))
    .map((found) => attachApproximateMarkers(text, found))
    .filter((found) => !isInNonDateContext(text, found))
    .map((found) => fitToPhotoEra(found, context.referenceYear))
    .filter((found): found is Candidate => found !== null);
  const dated = candidates.filter((found) => !noDate.some((gone) => within(found, gone)));
  return classifyUse(text, keepMostSpecific(dated)).map(withEdtf);
}
