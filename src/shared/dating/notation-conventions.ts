// The conventions that decide a reading where the written date leaves a choice, stated once, so
// that every explanation names the one it used. Seasons and holidays: calendar-periods.ts; thirds
// of a decade: decade-century-expressions.ts; numeric day/month order: the library's setting.
import type { Holiday } from './calendar-periods';

export const SEASON_CONVENTION =
  'seasons are meteorological, northern hemisphere: spring March–May, summer June–August, autumn September–November; a winter named by one year covers both winters that touch it (December of the year before to February of the year after)';

export const DECADE_THIRDS_CONVENTION = 'early, mid and late split a decade 0–3, 4–6 and 7–9 (a century 00–33, 34–66, 67–99)';

export const HOLIDAY_CONVENTION: Record<Holiday, string> = {
  christmas: 'Christmas names the festive days, December 20–31',
  'christmas-eve': 'Christmas Eve is December 24',
  'christmas-day': 'Christmas Day is December 25',
  'boxing-day': "Boxing Day (St Stephen's Day, the second day of Christmas) is December 26",
  'new-year': "New Year names New Year's Eve and New Year's Day",
  'new-years-eve': "New Year's Eve is December 31",
  'new-years-day': "New Year's Day is January 1",
  easter: 'Easter names Palm Sunday to the Sunday after Easter (Gregorian computus)',
  'easter-sunday': 'Easter Sunday by the Gregorian computus',
};

export type NumericDateOrder = 'month-first' | 'day-first' | 'undecided';

export const NUMERIC_ORDER_CONVENTION: Record<NumericDateOrder, string> = {
  'month-first': "numeric dates read month first (this library's setting)",
  'day-first': "numeric dates read day first (this library's setting)",
  undecided:
    "numeric date order undecided (this library's setting): dots are read day first, a slash or hyphen date that reads both ways keeps both",
};
