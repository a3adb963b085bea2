// Shared building blocks of the text-pattern rules in extract-dates.ts:
// the rule signature, regex iteration, year tokens, month names and the
// confidence scale that every rule draws from.
import type { FoundDate } from './types';
import { MAX_YEAR, MIN_YEAR } from './daynum';
import type { NumericDateOrder } from './notation-conventions';
import { resolveTwoDigitYear } from './photo-era';

export interface ExtractionContext {
  /** Latest year a photo can have; also decides two-digit years (see photo-era.ts). */
  referenceYear: number;
  /** How numeric dates such as 7/4/1906 are read: the library's setting (numeric-dates.ts). */
  dateOrder: NumericDateOrder;
}

/** One family of date expressions: finds every candidate in the text, overlaps allowed. */
export type DateRule = (text: string, context: ExtractionContext) => FoundDate[];

/** A FoundDate minus where it was found; `collectMatches` adds text and index. */
export type Reading = Omit<FoundDate, 'text' | 'index'>;

/**
 * Confidence that an expression is a date of the photo, by kind of
 * expression. Fully written dates almost always are; bare numbers might be
 * anything; decades and centuries are usually someone's guess.
 */
export const CONFIDENCE = {
  writtenDate: 0.95, // "June 12, 1947", "12 JUN 1947"
  writtenDateTwoDigitYear: 0.9, // "12 JUN 47" (postmark)
  numericDate: 0.9, // "12/06/1947" read one way only
  numericDateTwoDigitYear: 0.85, // "12.6.47"
  ambiguousNumericDate: 0.6, // "06/12/1947": 6 December or June 12
  monthYear: 0.9, // "Jun 1947"
  numericMonthYear: 0.75, // "8/1945": could also be a reference number
  holiday: 0.9, // "Xmas 1942"
  season: 0.85, // "Summer '61"
  yearRange: 0.85, // "1935-1942"
  year: 0.75, // "1947": usually a date, but captions contain other numbers
  openEnded: 0.6, // "before 1940": often about something else in the picture
  decade: 0.75, // "1940s", "'40s"
  decadeInWords: 0.6, // "the forties"
  century: 0.5, // "19th century", "18--"
  twoDigitYear: 0.6, // "'47": short, could be a nickname or a number
} as const;

/** Runs a global regex over the text and turns each match into a FoundDate (or skips it). */
export function collectMatches(pattern: RegExp, text: string, read: (match: RegExpExecArray) => Reading | null): FoundDate[] {
  if (!pattern.global) throw new Error(`Pattern must be global: ${pattern}`);
  const found: FoundDate[] = [];
  for (const match of text.matchAll(pattern)) {
    const reading = read(match as RegExpExecArray);
    if (reading) found.push({ text: match[0], index: match.index, ...reading });
  }
  return found;
}

/** Straight, curly and back-tick apostrophes as OCR delivers them. */
export const APOSTROPHE = "['’‘`]";

/** A 4-digit year of the photographic era, or a two-digit year with optional apostrophe. */
export const YEAR_TOKEN = `(?:1[89]\\d\\d|20\\d\\d|${APOSTROPHE}?\\d\\d)`;

/** Reads "1947", "'47" or "47"; two-digit years follow resolveTwoDigitYear. */
export function readYearToken(token: string, context: ExtractionContext): number | null {
  const digits = token.replace(new RegExp(APOSTROPHE, 'g'), '');
  if (!/^\d+$/.test(digits)) return null;
  const year = digits.length === 2 ? resolveTwoDigitYear(Number(digits), context.referenceYear) : Number(digits);
  return year >= MIN_YEAR && year <= MAX_YEAR ? year : null;
}

export function isTwoDigitYear(token: string): boolean {
  return token.replace(new RegExp(APOSTROPHE, 'g'), '').length === 2;
}

/** Month names and the abbreviations found on postmarks and notes, as a regex alternation. */
export const MONTH_NAME =
  '(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)';

export function monthFromName(name: string): number | null {
  const key = name.slice(0, 3).toLowerCase();
  const index = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'].indexOf(key);
  return index === -1 ? null : index + 1;
}

/** "early", "mid" and "late" split a decade or century into three parts. */
export type PartOfPeriod = 'early' | 'mid' | 'late';

export function readPartOfPeriod(word: string | undefined): PartOfPeriod | null {
  const lower = word?.toLowerCase();
  return lower === 'early' || lower === 'mid' || lower === 'late' ? lower : null;
}
