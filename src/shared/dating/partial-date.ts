// A date as far as it is known: a year, a month of a year, or a day ("June 1923", "3 May 1945").
// As a lower end it starts the period it names; as an upper end it ends it.
import type { Precision } from './types';
import { dayNum, isValidDate, monthEnd, yearEnd } from './daynum';

export interface PartialDate {
  year: number;
  month?: number;
  day?: number;
}

export function partialPrecision(d: PartialDate): Precision {
  return d.day != null ? 'day' : d.month != null ? 'month' : 'year';
}

/** Why this is not a date, or null when it is one. */
export function partialDateProblem(d: PartialDate): string | null {
  if (d.day != null && d.month == null) return 'a day needs its month';
  if (!isValidDate(d.year, d.month ?? 1, d.day ?? 1)) return `${d.year}-${d.month}-${d.day} is not a date`;
  return null;
}

/** The first day of the period: June 1923 → 19230601. */
export function partialStart(d: PartialDate): number {
  return dayNum(d.year, d.month ?? 1, d.day ?? 1);
}

/** The last day of the period: June 1923 → 19230630. */
export function partialEnd(d: PartialDate): number {
  if (d.day != null) return dayNum(d.year, d.month!, d.day);
  return d.month != null ? monthEnd(d.year, d.month) : yearEnd(d.year);
}
