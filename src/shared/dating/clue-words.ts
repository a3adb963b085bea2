/**
 * A clue in the archivist's words, the same wherever one is seen: the grid's tile ("undated · 1
 * weak clue"), the photo screen (the estimate's count, each finding's flag, a visual analysis's
 * clues), the estimate's explanation and every export's finding line. What makes a finding a clue
 * is clue-rule.ts's; this module only says it.
 *
 * A clue is weak however high its number: an interval of decades holds the date so often because
 * it says so little ("1850–2026, evidence confidence 94 %"), so a wide clue says how wide it is
 * instead of looking like a date.
 */

import { yearOf } from './daynum';

/** An interval of this many years or more places a photo in no particular decade: a wide clue. */
export const WIDE_CLUE_YEARS = 20;

/** A clue's interval in years (null: open on that side). */
export interface ClueYears {
  earliestYear: number | null;
  latestYear: number | null;
}

/** A finding's interval (days as YYYYMMDD numbers) in years. */
export function yearsOfDays(item: { earliest: number | null; latest: number | null }): ClueYears {
  return {
    earliestYear: item.earliest !== null ? yearOf(item.earliest) : null,
    latestYear: item.latest !== null ? yearOf(item.latest) : null,
  };
}

/** "1 weak clue", "3 weak clues". */
export function weakClueCount(n: number): string {
  return n === 1 ? '1 weak clue' : `${n} weak clues`;
}

/** How many calendar years the interval touches, or null when it is open on a side. */
export function spanYears({ earliestYear, latestYear }: ClueYears): number | null {
  return earliestYear === null || latestYear === null ? null : latestYear - earliestYear + 1;
}

/** Whether the interval is wide: open on a side, or spanning WIDE_CLUE_YEARS or more. */
export function isWide(years: ClueYears): boolean {
  const n = spanYears(years);
  return n === null || n >= WIDE_CLUE_YEARS;
}

/** The tag a clue carries beside its interval: "weak clue", "weak clue spanning 177 years", "weak clue, open-ended". */
export function weakClueTag(years: ClueYears): string {
  const n = spanYears(years);
  if (years.earliestYear === null && years.latestYear === null) return 'weak clue';
  if (n === null) return 'weak clue, open-ended';
  return n >= WIDE_CLUE_YEARS ? `weak clue spanning ${n} years` : 'weak clue';
}

/** The flag under a clue: "Weak clue spanning 177 years, not a date: visual analysis not yet accepted". */
export function weakClueFlag(years: ClueYears, reason: string): string {
  const tag = weakClueTag(years);
  return `${tag[0].toUpperCase()}${tag.slice(1)}, not a date: ${reason}`;
}
