// Day numbers: a calendar date encoded as the integer YYYYMMDD (19470612).
// They sort and compare like dates, are readable in a database row, and need
// no time zone. Only years 1000–2999 are accepted so that every day number
// has exactly eight digits.

export const MIN_YEAR = 1000;
export const MAX_YEAR = 2999;

const MS_PER_DAY = 86_400_000;

export interface DayParts {
  year: number;
  month: number;
  day: number;
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

export function isValidDate(year: number, month: number, day: number): boolean {
  return (
    Number.isInteger(year) &&
    Number.isInteger(month) &&
    Number.isInteger(day) &&
    year >= MIN_YEAR &&
    year <= MAX_YEAR &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month)
  );
}

/** Encodes a calendar date; throws a RangeError for impossible dates or years outside 1000–2999. */
export function dayNum(year: number, month = 1, day = 1): number {
  if (!isValidDate(year, month, day)) {
    throw new RangeError(`Not a valid date in ${MIN_YEAR}–${MAX_YEAR}: ${year}-${month}-${day}`);
  }
  return year * 10_000 + month * 100 + day;
}

export function isDayNum(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n) && isValidDate(Math.floor(n / 10_000), Math.floor(n / 100) % 100, n % 100);
}

export function assertDayNum(n: number): void {
  if (!isDayNum(n)) throw new RangeError(`Not a YYYYMMDD day number: ${n}`);
}

export function parts(n: number): DayParts {
  assertDayNum(n);
  return { year: Math.floor(n / 10_000), month: Math.floor(n / 100) % 100, day: n % 100 };
}

export function yearOf(n: number): number {
  return parts(n).year;
}

export function monthOf(n: number): number {
  return parts(n).month;
}

export function dayOf(n: number): number {
  return parts(n).day;
}

export function yearStart(year: number): number {
  return dayNum(year, 1, 1);
}

export function yearEnd(year: number): number {
  return dayNum(year, 12, 31);
}

export function monthStart(year: number, month: number): number {
  return dayNum(year, month, 1);
}

export function monthEnd(year: number, month: number): number {
  return dayNum(year, month, daysInMonth(year, month));
}

export function isYearStart(n: number): boolean {
  const { month, day } = parts(n);
  return month === 1 && day === 1;
}

export function isYearEnd(n: number): boolean {
  const { month, day } = parts(n);
  return month === 12 && day === 31;
}

export function isMonthStart(n: number): boolean {
  return parts(n).day === 1;
}

export function isMonthEnd(n: number): boolean {
  const { year, month, day } = parts(n);
  return day === daysInMonth(year, month);
}

/** 'YYYY-MM-DD'. */
export function toIsoDate(n: number): string {
  const { year, month, day } = parts(n);
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Comparator for sorting day numbers (plain numeric order is date order). */
export function compare(a: number, b: number): number {
  return a - b;
}

/** Days since 1970-01-01; used for day arithmetic and interval lengths. */
export function toEpochDay(n: number): number {
  const { year, month, day } = parts(n);
  return Date.UTC(year, month - 1, day) / MS_PER_DAY;
}

export function fromEpochDay(epochDay: number): number {
  const date = new Date(epochDay * MS_PER_DAY);
  return dayNum(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate());
}

export function addDays(n: number, days: number): number {
  return fromEpochDay(toEpochDay(n) + days);
}

/** Number of days in the inclusive interval [earliest, latest]. */
export function dayCount(earliest: number, latest: number): number {
  return toEpochDay(latest) - toEpochDay(earliest) + 1;
}

/** Milliseconds since the epoch at the start of the day, in UTC (how edtf.js reports `min`). */
export function toUtcMillis(n: number): number {
  return toEpochDay(n) * MS_PER_DAY;
}

/** English month names, January first (for DACS wording and explanations). */
export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;
