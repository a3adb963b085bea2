// Finds the dates in free text from a photograph: OCR of a caption, a postmark,
// a note on the back of a print. Each rule module proposes candidates; this
// module qualifies them, vetoes the ones that are not dates, keeps them inside
// the photographic era, resolves overlaps, and says which dates are of the
// object's use rather than of the picture (date-use.ts).
import type { FoundDate } from './types';
import { dayCount, MAX_YEAR } from './daynum';
import { attachApproximateMarkers } from './approximate-markers';
import {
  findCenturies,
  findDecades,
  findDecadesInWords,
  findTwoDigitDecades,
  findUnknownDigitYears,
} from './decade-century-expressions';
import type { DateRule, ExtractionContext } from './extraction-kit';
import { classifyUse } from './date-use';
import { isInNonDateContext } from './not-a-date';
import { findNumericDates, findNumericMonthYears, findRomanMonthDates } from './numeric-dates';
import { currentYear, FIRST_PHOTOGRAPH_YEAR, fitToPhotoEra } from './photo-era';
import { findHolidays, findSeasons, findWintersAcrossYears } from './season-holiday-expressions';
import { findMonthSpans, findMonthWithApostropheYear, findWrittenDates } from './written-dates';
import { findApostropheYears, findOpenEndedYears, findYearRanges, findYears } from './year-expressions';

export interface ExtractDatesOptions {
  /** Latest plausible year, and pivot for two-digit years. Default: the current year. */
  referenceYear?: number;
}

const RULES: DateRule[] = [
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
 * narrower interval, then the more confident reading.
 */
function moreSpecificFirst(a: FoundDate, b: FoundDate): number {
  return (
    b.text.length - a.text.length ||
    dayCount(a.earliest, a.latest) - dayCount(b.earliest, b.latest) ||
    b.confidence - a.confidence ||
    a.index - b.index
  );
}

function overlaps(a: FoundDate, b: FoundDate): boolean {
  return a.index < b.index + b.text.length && b.index < a.index + a.text.length;
}

function keepMostSpecific(candidates: FoundDate[]): FoundDate[] {
  const kept: FoundDate[] = [];
  for (const candidate of [...candidates].sort(moreSpecificFirst)) {
    if (!kept.some((other) => overlaps(other, candidate))) kept.push(candidate);
  }
  return kept.sort((a, b) => a.index - b.index);
}

export function extractDates(text: string, options: ExtractDatesOptions = {}): FoundDate[] {
  const referenceYear = options.referenceYear ?? currentYear();
  if (!Number.isInteger(referenceYear) || referenceYear < FIRST_PHOTOGRAPH_YEAR || referenceYear > MAX_YEAR) {
    throw new RangeError(`referenceYear must be a whole year from ${FIRST_PHOTOGRAPH_YEAR} to ${MAX_YEAR}: ${referenceYear}`);
  }
  const context: ExtractionContext = { referenceYear };
  const candidates = RULES.flatMap((rule) => rule(text, context))
    .map((found) => attachApproximateMarkers(text, found))
    .filter((found) => !isInNonDateContext(text, found))
    .map((found) => fitToPhotoEra(found, context.referenceYear))
    .filter((found): found is FoundDate => found !== null);
  return classifyUse(text, keepMostSpecific(candidates));
}
