// Intervals of the named parts of a year that captions use: seasons and holidays.
// Pure date arithmetic; the text patterns live in named-period-patterns.ts.
import type { Precision } from './types';
import { addDays, dayNum, monthEnd } from './daynum';

export interface Period {
  earliest: number;
  latest: number;
  precision: Precision;
}

export type Season = 'spring' | 'summer' | 'autumn' | 'winter';

/**
 * Meteorological seasons of the northern hemisphere (the collections are
 * American and European): spring March–May, summer June–August, autumn
 * September–November.
 *
 * Winter spans the year boundary, and "Winter 1944" is read both ways in
 * practice: the winter that ends in 1944 (December 1943–February 1944) or the
 * one that starts in it (December 1944–February 1945). We cover both readings,
 * December 1943–February 1945, rather than risk excluding the true date.
 * "Winter 1944-45" names one winter and gets December 1944–February 1945.
 */
export function seasonPeriod(season: Season, year: number): Period {
  switch (season) {
    case 'spring':
      return { earliest: dayNum(year, 3, 1), latest: monthEnd(year, 5), precision: 'season' };
    case 'summer':
      return { earliest: dayNum(year, 6, 1), latest: monthEnd(year, 8), precision: 'season' };
    case 'autumn':
      return { earliest: dayNum(year, 9, 1), latest: monthEnd(year, 11), precision: 'season' };
    case 'winter':
      return { earliest: dayNum(year - 1, 12, 1), latest: monthEnd(year + 1, 2), precision: 'season' };
  }
}

/** The single winter from December of `startYear` to February of the next year. */
export function winterStartingIn(startYear: number): Period {
  return { earliest: dayNum(startYear, 12, 1), latest: monthEnd(startYear + 1, 2), precision: 'season' };
}

/** Easter Sunday (Gregorian), by the anonymous Gregorian ("Meeus/Jones/Butcher") algorithm. */
export function easterSunday(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return dayNum(year, month, day);
}

export type Holiday =
  | 'christmas'
  | 'christmas-eve'
  | 'christmas-day'
  | 'boxing-day'
  | 'new-year'
  | 'new-years-eve'
  | 'new-years-day'
  | 'easter'
  | 'easter-sunday';

/**
 * What a holiday in a caption covers. A bare holiday names the festive days
 * around it, because photos labelled "Xmas 1952" are taken over the holidays,
 * not only on the day:
 * - Christmas: December 20–31 of that year (the label names the year, so we
 *   do not run into January);
 * - New Year: New Year's Eve of the year before and New Year's Day;
 * - Easter: Palm Sunday to the Sunday after Easter, around the computed
 *   Easter Sunday of that year (Easter itself moves between March 22 and April 25).
 * "Christmas Eve/Day", Boxing Day (St Stephen's Day, the second day of Christmas), "New Year's
 * Eve/Day" and "Easter Sunday" are single days.
 */
export function holidayPeriod(holiday: Holiday, year: number): Period {
  switch (holiday) {
    case 'christmas':
      return { earliest: dayNum(year, 12, 20), latest: dayNum(year, 12, 31), precision: 'season' };
    case 'christmas-eve':
      return singleDay(dayNum(year, 12, 24));
    case 'christmas-day':
      return singleDay(dayNum(year, 12, 25));
    case 'boxing-day':
      return singleDay(dayNum(year, 12, 26));
    case 'new-year':
      return { earliest: dayNum(year - 1, 12, 31), latest: dayNum(year, 1, 1), precision: 'day' };
    case 'new-years-eve':
      return singleDay(dayNum(year, 12, 31));
    case 'new-years-day':
      return singleDay(dayNum(year, 1, 1));
    case 'easter': {
      const easter = easterSunday(year);
      return { earliest: addDays(easter, -7), latest: addDays(easter, 7), precision: 'season' };
    }
    case 'easter-sunday':
      return singleDay(easterSunday(year));
  }
}

function singleDay(day: number): Period {
  return { earliest: day, latest: day, precision: 'day' };
}
