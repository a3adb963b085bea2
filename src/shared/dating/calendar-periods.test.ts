import { describe, expect, it } from 'vitest';
import { easterSunday, holidayPeriod, seasonPeriod, winterStartingIn } from './calendar-periods';

describe('calendar periods', () => {
  it.each([
    [1818, 18180322], // earliest possible Easter
    [1938, 19380417],
    [1943, 19430425], // latest possible Easter
    [1961, 19610402],
    [2000, 20000423],
    [2024, 20240331],
  ])('Easter Sunday %i is %i', (year, expected) => {
    expect(easterSunday(year)).toBe(expected);
  });

  it('reads seasons as northern-hemisphere meteorological seasons', () => {
    expect(seasonPeriod('summer', 1961)).toMatchObject({ earliest: 19610601, latest: 19610831 });
    expect(seasonPeriod('spring', 1950)).toMatchObject({ earliest: 19500301, latest: 19500531 });
    expect(seasonPeriod('autumn', 1938)).toMatchObject({ earliest: 19380901, latest: 19381130 });
  });

  it('covers both winters touching a year, unless the winter is named by its two years', () => {
    expect(seasonPeriod('winter', 1944)).toMatchObject({ earliest: 19431201, latest: 19450228 });
    expect(winterStartingIn(1944)).toMatchObject({ earliest: 19441201, latest: 19450228 });
  });

  it('gives holidays their festive days', () => {
    expect(holidayPeriod('christmas', 1942)).toMatchObject({ earliest: 19421220, latest: 19421231 });
    expect(holidayPeriod('christmas-day', 1942)).toMatchObject({ earliest: 19421225, latest: 19421225 });
    expect(holidayPeriod('new-year', 1950)).toMatchObject({ earliest: 19491231, latest: 19500101 });
    expect(holidayPeriod('easter', 1938)).toMatchObject({ earliest: 19380410, latest: 19380424 });
  });
});
