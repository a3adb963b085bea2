// The reader of history in a caption: finds named events and periods ("V-E Day, London",
// "Coronation of George VI", "between the wars", "after the war") and says what each tells about
// the picture's date, with the entry it read and that entry's source. An event named plainly dates
// the picture (an estimate over the event); a qualifier ("after", "before", "during") or a
// bounding entry ("interwar", "post-war") only limits it (a hard bound); a yearly commemoration is
// that day of the year written beside it, or without a year only "not before" its first.
import { dayNum, yearOf } from '../daynum';
import { describeEnd, describeStart, toDacs } from '../format';
import type { EndPrecisions } from '../types';
import { HISTORY_CATALOGUE } from './catalogue';
import { allNames, citeSource, entryEnd, entryStart, type HistoryEnd, type HistoryEntry } from './history-entry';
import { AFTER_WORD, BEFORE_WORD, foldAccents, namePattern } from './name-pattern';
import { namesAThing } from './names-a-thing';
import { qualifierBefore, type QualifierRole } from './qualifiers';

/** Where an entry comes from: Circa's catalogue, or the archivist's own list. */
export type HistoryOrigin = 'catalogue' | 'own';

export interface ReadableEntry {
  entry: HistoryEntry;
  origin: HistoryOrigin;
  /** The catalogue family ("wars", "fairs"…), for the catalogue's entries. */
  family?: string;
}

/**
 * dates: the picture is of the event or period (an estimate over its interval);
 * between / not_before / not_after: the text only bounds the picture.
 */
export type HistoryReadingKind = 'dates' | 'between' | 'not_before' | 'not_after';

export interface HistoricalReading {
  /** The words read, qualifier and year included ("after the war", "Armistice Day 1925"). */
  text: string;
  index: number;
  entry: HistoryEntry;
  origin: HistoryOrigin;
  kind: HistoryReadingKind;
  earliest: number | null;
  latest: number | null;
  precision: EndPrecisions;
  /** How an event's own kind weighs an estimate: an event names the day, a period only an age. */
  confidence: number | null;
  /** What was read and why, naming the entry and its source. */
  reason: string;
}

/** An event named in a caption is strong evidence of the picture; an era's name is a style as often as a date. */
export const HISTORY_CONFIDENCE = { event: 0.85, period: 0.5 } as const;

const YEAR = '(?:1[89]\\d\\d|20\\d\\d)';

interface CompiledEntry {
  readable: ReadableEntry;
  /** Per name, the words any text naming it contains (lower case, accents off, optional words left out). */
  words: string[][];
  /** Built the first time a text contains all the words of one of the names. */
  pattern: RegExp | null;
}

/**
 * "V-E Day" → ["v", "e", "day"]: substrings, not whole words, because separators may vanish
 * ("VE-Day", "postwar" for "post-war").
 */
function wordsOf(name: string): string[] {
  return foldAccents(name)
    .toLowerCase()
    .replace(/\[[^\]]*\]/g, ' ')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

function patternOf({ entry }: ReadableEntry): RegExp {
  // Longest names first, so "Coronation of George VI" wins over a shorter alias at the same place.
  const names = [...new Set(allNames(entry))].sort((a, b) => b.length - a.length).map(namePattern);
  const yearBefore = entry.yearly ? `(?:(?<yearBefore>${YEAR})\\s+)?` : '';
  const yearAfter = entry.yearly ? `(?:[\\s,]+(?:of\\s+|de\\s+|du\\s+|von\\s+)?(?<yearAfter>${YEAR}))?` : '';
  const source = `${BEFORE_WORD}${yearBefore}(?:${names.join('|')})${yearAfter}${AFTER_WORD}`;
  return new RegExp(source, 'giu');
}

const compiledLists = new WeakMap<readonly ReadableEntry[], CompiledEntry[]>();

function compiledFor(entries: readonly ReadableEntry[]): CompiledEntry[] {
  let compiled = compiledLists.get(entries);
  if (!compiled) {
    compiled = entries.map((readable) => ({ readable, words: allNames(readable.entry).map(wordsOf), pattern: null }));
    compiledLists.set(entries, compiled);
  }
  return compiled;
}

/** The catalogue as the reader takes it. */
export const CATALOGUE_ENTRIES: readonly ReadableEntry[] = HISTORY_CATALOGUE.map((entry) => ({
  entry,
  origin: 'catalogue' as const,
  family: entry.family,
}));

/** The same words, whatever their case, accents, spacing or punctuation ("VE day" and "V-E Day"). */
export function sameWords(a: string, b: string): boolean {
  const key = (s: string) =>
    foldAccents(s)
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, '');
  return key(a) === key(b);
}

/** The entry's first name as read aloud: "Coronation of [King] George VI" → "Coronation of George VI". */
export function displayName(entry: Pick<HistoryEntry, 'names'>): string {
  const first = entry.names.en?.[0] ?? allNames(entry)[0];
  return first.replace(/\[[^\]]*\]\s*/g, '').trim();
}

type Interval = Pick<HistoricalReading, 'kind' | 'earliest' | 'latest' | 'precision'>;

function bound(start: HistoryEnd | null, end: HistoryEnd | null): Interval | null {
  if (!start && !end) return null;
  const kind = start && end ? 'between' : start ? 'not_before' : 'not_after';
  return {
    kind,
    earliest: start?.day ?? null,
    latest: end?.day ?? null,
    precision: { earliest: start?.precision ?? null, latest: end?.precision ?? null },
  };
}

function qualified(entry: HistoryEntry, role: QualifierRole): Interval | null {
  const start = entryStart(entry);
  const end = entryEnd(entry);
  if (role === 'after') return bound(end ?? start, null);
  if (role === 'before') return bound(null, start ?? end);
  return bound(start, end);
}

/** "Armistice Day 1925": that day of that year, when the day was kept then. */
function commemorationDay(entry: HistoryEntry, year: number): Interval | null {
  const yearly = entry.yearly!;
  const start = entryStart(entry);
  // "Armistice Day 1918": the event itself, before it was ever kept.
  if (start && year === yearOf(start.day) && entry.evidence === 'dates') return eventItself(entry);
  if (year < yearly.from || (yearly.until !== undefined && year > yearly.until)) return null;
  try {
    const day = dayNum(year, yearly.month, yearly.day);
    return { kind: 'dates', earliest: day, latest: day, precision: { earliest: 'day', latest: 'day' } };
  } catch {
    return null; // 29 February of a common year
  }
}

function plain(entry: HistoryEntry, year: number | null): Interval | null {
  if (entry.qualifiedOnly) return null;
  if (entry.yearly) {
    if (year !== null) return commemorationDay(entry, year);
    // No year: the first time it was kept, and (if it ended) the last.
    const until = entry.yearly.until;
    const last =
      until === undefined ? null : { day: dayNum(until, entry.yearly.month, entry.yearly.day), precision: 'day' as const };
    return bound(entryStart(entry), last);
  }
  return eventItself(entry);
}

/** What naming the entry says: its interval as an estimate, or as a bound when it only bounds (or is open). */
function eventItself(entry: HistoryEntry): Interval | null {
  const start = entryStart(entry);
  const end = entryEnd(entry);
  if (entry.evidence === 'bounds' || !start || !end) return bound(start, end);
  return { kind: 'dates', earliest: start.day, latest: end.day, precision: { earliest: start.precision, latest: end.precision } };
}

function explain(text: string, entry: HistoryEntry, role: QualifierRole | null, interval: Interval): string {
  const name = displayName(entry);
  const source = citeSource(entry.source);
  const { earliest, latest, precision } = interval;
  const span = toDacs(entryStart(entry)?.day ?? null, entryEnd(entry)?.day ?? null, {
    precision: { earliest: entryStart(entry)?.precision ?? null, latest: entryEnd(entry)?.precision ?? null },
  });
  const says =
    interval.kind === 'dates'
      ? toDacs(earliest, latest, { precision })
      : interval.kind === 'not_before'
        ? `not before ${describeStart(earliest!, precision.earliest)}`
        : interval.kind === 'not_after'
          ? `not after ${describeEnd(latest!, precision.latest)}`
          : `between ${describeStart(earliest!, precision.earliest)} and ${describeEnd(latest!, precision.latest)}`;
  const what = role ? `${role} ${name} (${span})` : entry.yearly && interval.kind !== 'dates' ? `${name}, kept yearly` : name;
  // "“V-E Day” names V-E Day" says nothing twice.
  const names = what !== name || !sameWords(text, name) ? ` names ${what}` : '';
  return `“${text}”${names}: ${says} (source: ${source})`;
}

/**
 * Every named event or period in the text, longest reading first where two overlap
 * ("after the war" over "the war"). `entries` defaults to Circa's catalogue; pass the catalogue
 * and the archivist's own entries together to read both.
 */
export function findHistoricalReferences(
  text: string,
  entries: readonly ReadableEntry[] = CATALOGUE_ENTRIES,
): HistoricalReading[] {
  const folded = foldAccents(text);
  const lower = folded.toLowerCase();
  const found: HistoricalReading[] = [];
  for (const compiled of compiledFor(entries)) {
    // Most entries' words are not in a caption at all: only those whose words all are get their pattern run.
    if (!compiled.words.some((words) => words.every((w) => lower.includes(w)))) continue;
    compiled.pattern ??= patternOf(compiled.readable);
    const { readable, pattern } = compiled;
    for (const match of folded.matchAll(pattern)) {
      // "after the war", "nach dem Krieg": the words just before the name.
      const qualifier = qualifierBefore(folded, match.index);
      const role = qualifier?.role ?? null;
      const start = qualifier?.index ?? match.index;
      const end = match.index + match[0].length;
      // "before the war memorial": the name names a thing there, not a time.
      if (namesAThing(folded, end)) continue;
      const yearText = match.groups?.yearBefore ?? match.groups?.yearAfter;
      const year = yearText ? Number(yearText) : null;
      const interval = role ? qualified(readable.entry, role) : plain(readable.entry, year);
      if (!interval) continue;
      const original = text.slice(start, end);
      found.push({
        text: original,
        index: start,
        entry: readable.entry,
        origin: readable.origin,
        ...interval,
        confidence: interval.kind === 'dates' ? HISTORY_CONFIDENCE[readable.entry.kind] : null,
        reason: explain(original, readable.entry, role, interval),
      });
    }
  }
  return keepLongest(found);
}

function keepLongest(readings: HistoricalReading[]): HistoricalReading[] {
  const kept: HistoricalReading[] = [];
  const byLength = [...readings].sort((a, b) => b.text.length - a.text.length || a.index - b.index);
  for (const r of byLength) {
    const overlaps = kept.some((k) => r.index < k.index + k.text.length && k.index < r.index + r.text.length);
    // An archivist's own entry read at the same words as a catalogue entry is kept beside it.
    if (!overlaps) kept.push(r);
  }
  return kept.sort((a, b) => a.index - b.index);
}
