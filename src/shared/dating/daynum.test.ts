import { describe, expect, it } from 'vitest';
import { addDays, compare, dayCount, dayNum, isDayNum, monthEnd, parts, toIsoDate, yearEnd, yearOf, yearStart } from './daynum';

describe('day numbers', () => {
  it('encode dates as YYYYMMDD and decode them again', () => {
    expect(dayNum(1947, 6, 12)).toBe(19470612);
    expect(dayNum(1947)).toBe(19470101);
    expect(parts(19470612)).toEqual({ year: 1947, month: 6, day: 12 });
    expect(yearOf(19470612)).toBe(1947);
    expect(toIsoDate(19470612)).toBe('1947-06-12');
  });

  it('know year and month ends, leap years included', () => {
    expect(yearStart(1935)).toBe(19350101);
    expect(yearEnd(1935)).toBe(19351231);
    expect(monthEnd(1948, 2)).toBe(19480229);
    expect(monthEnd(1900, 2)).toBe(19000228);
    expect(monthEnd(2000, 2)).toBe(20000229);
    expect(monthEnd(1947, 4)).toBe(19470430);
  });

  it('reject impossible dates and years outside 1000–2999', () => {
    expect(() => dayNum(1947, 2, 29)).toThrow(RangeError);
    expect(() => dayNum(1947, 13)).toThrow(RangeError);
    expect(() => dayNum(999)).toThrow(RangeError);
    expect(() => dayNum(3000)).toThrow(RangeError);
    expect(isDayNum(19470229)).toBe(false);
    expect(isDayNum(1947)).toBe(false);
    expect(isDayNum(19470228)).toBe(true);
  });

  it('sort and count like dates', () => {
    expect([19470612, 19351231, 19470101].sort(compare)).toEqual([19351231, 19470101, 19470612]);
    expect(addDays(19471231, 1)).toBe(19480101);
    expect(addDays(19480301, -1)).toBe(19480229);
    expect(dayCount(19470101, 19471231)).toBe(365);
    expect(dayCount(19470612, 19470612)).toBe(1);
  });
});
