import edtf from 'edtf';
import { describe, expect, it } from 'vitest';
import { toUtcMillis } from './daynum';
import { describeEnd, describeStart, type FormatOptions, toDacs, toEdtf } from './format';

type Row = [earliest: number | null, latest: number | null, options: FormatOptions, edtf: string, dacs: string];

const ROWS: Row[] = [
  // exact
  [19470612, 19470612, {}, '1947-06-12', '1947 June 12'],
  [19470601, 19470630, {}, '1947-06', '1947 June'],
  [19480201, 19480229, {}, '1948-02', '1948 February'],
  [19470101, 19471231, {}, '1947', '1947'],
  [18900101, 18991231, {}, '189X', '1890s'],
  [19000101, 19091231, {}, '190X', '1900–1909'],
  [18000101, 18991231, {}, '18XX', '19th century'],
  [19000101, 19991231, {}, '19XX', '20th century'],
  [19350101, 19421231, {}, '1935/1942', '1935–1942'],
  [19200101, 19231231, {}, '1920/1923', '1920–1923'],
  [19470612, 19470614, {}, '1947-06-12/1947-06-14', '1947 June 12–14'],
  [19470612, 19470703, {}, '1947-06-12/1947-07-03', '1947 June 12–July 3'],
  [19470601, 19470831, {}, '1947-06/1947-08', '1947 June–August'],
  [19470101, 19470815, {}, '1947/1947-08-15', '1947 January 1–August 15'],
  [19470612, 19481203, {}, '1947-06-12/1948-12-03', '1947 June 12–1948 December 3'],
  [19470601, 19480331, {}, '1947-06/1948-03', '1947 June–1948 March'],
  [19350101, 19420630, {}, '1935/1942-06', '1935 January–1942 June'],
  [19431201, 19450228, {}, '1943-12/1945-02', '1943 December–1945 February'],
  // the upper end never starts before the lower one (edtf.js rejects '1942-12-20/1942')
  [19421220, 19421231, {}, '1942-12-20/1942-12-31', '1942 December 20–31'],
  [19420615, 19420630, {}, '1942-06-15/1942-06-30', '1942 June 15–30'],
  [19420601, 19421231, {}, '1942-06/1942-12', '1942 June–December'],
  [19420615, 19421231, {}, '1942-06-15/1942-12', '1942 June 15–December 31'],
  // open ends
  [null, 18671231, {}, '../1867', 'not after 1867'],
  [19230101, null, {}, '1923/..', 'not before 1923'],
  [null, 19470612, {}, '../1947-06-12', 'not after 1947 June 12'],
  [19470601, null, {}, '1947-06/..', 'not before 1947 June'],
  [null, null, {}, '../..', 'undated'],
  // approximate
  [19250101, 19251231, { approximate: true }, '1925~', 'approximately 1925'],
  [19350101, 19421231, { approximate: true }, '1935~/1942~', 'circa 1935–1942'],
  [19470601, 19470630, { approximate: true }, '1947-06~', 'circa 1947 June'],
  [19470612, 19470612, { approximate: true }, '1947-06-12~', 'circa 1947 June 12'],
  [18900101, 18991231, { approximate: true }, '1890~/1899~', 'circa 1890s'],
  [18000101, 18991231, { approximate: true }, '1800~/1899~', 'circa 19th century'],
  [19350101, 19421231, { approximate: { earliest: true, latest: false } }, '1935~/1942', 'circa 1935–1942'],
  [19350101, 19421231, { approximate: { earliest: false, latest: true } }, '1935/1942~', 'circa 1935–1942'],
  [null, 18671231, { approximate: true }, '../1867~', 'not after circa 1867'],
  [19230101, null, { approximate: { earliest: true, latest: false } }, '1923~/..', 'not before circa 1923'],
];

describe('toEdtf / toDacs', () => {
  it.each(ROWS)('%s–%s %j → EDTF %s, DACS %s', (earliest, latest, options, expectedEdtf, expectedDacs) => {
    expect(toEdtf(earliest, latest, options)).toBe(expectedEdtf);
    expect(toDacs(earliest, latest, options)).toBe(expectedDacs);
  });

  it.each(ROWS)('%s–%s: the EDTF string covers exactly that interval', (earliest, latest, options) => {
    const parsed = edtf(toEdtf(earliest, latest, options));
    expect(parsed.min).toBe(earliest === null ? -Infinity : toUtcMillis(earliest));
    expect(parsed.max).toBe(latest === null ? Infinity : toUtcMillis(latest) + 86_400_000 - 1);
  });

  it('rejects an empty interval and malformed day numbers', () => {
    expect(() => toEdtf(19500101, 19401231)).toThrow(RangeError);
    expect(() => toDacs(19500101, 19401231)).toThrow(RangeError);
    expect(() => toEdtf(19471301, null)).toThrow(RangeError);
    expect(() => toDacs(1947, null)).toThrow(RangeError);
  });
});

describe('describeStart / describeEnd', () => {
  it.each([
    [19350101, '1935'],
    [19350601, '1935 June'],
    [19350612, '1935 June 12'],
  ])('start %s reads %s', (n, text) => expect(describeStart(n)).toBe(text));

  it.each([
    [19421231, '1942'],
    [19420630, '1942 June'],
    [19420612, '1942 June 12'],
    [19350101, '1935 January 1'],
  ])('end %s reads %s', (n, text) => expect(describeEnd(n)).toBe(text));
});

// Issue 14 item 2: an end keeps the precision it was stated with, even when it happens to fall on
// the last day of a month or a year.
describe('stated precision', () => {
  it.each<Row>([
    [null, 20000930, { precision: 'day' }, '../2000-09-30', 'not after 2000 September 30'],
    [null, 19001231, { precision: 'day' }, '../1900-12-31', 'not after 1900 December 31'],
    [19230601, null, { precision: 'month' }, '1923-06/..', 'not before 1923 June'],
    [19230101, null, { precision: 'month' }, '1923-01/..', 'not before 1923 January'],
    [19450503, 19450510, { precision: 'day' }, '1945-05-03/1945-05-10', '1945 May 3–10'],
    [19470601, 19470630, { precision: 'day' }, '1947-06-01/1947-06-30', '1947 June 1–30'],
    [19470101, 19471231, { precision: 'month' }, '1947-01/1947-12', '1947 January–December'],
    [19230601, 19251231, { precision: { earliest: 'month', latest: 'year' } }, '1923-06/1925', '1923 June–1925 December'],
    // A coarse stated precision never hides a finer alignment (a trimmed end stays exact).
    [19350101, 19420615, { precision: 'year' }, '1935/1942-06-15', '1935 January 1–1942 June 15'],
    [18900101, 18991231, { precision: 'decade' }, '189X', '1890s'],
  ])('%s–%s %j → EDTF %s, DACS %s', (earliest, latest, options, expectedEdtf, expectedDacs) => {
    expect(toEdtf(earliest, latest, options)).toBe(expectedEdtf);
    expect(toDacs(earliest, latest, options)).toBe(expectedDacs);
    const parsed = edtf(toEdtf(earliest, latest, options));
    expect(parsed.min).toBe(earliest === null ? -Infinity : toUtcMillis(earliest));
    expect(parsed.max).toBe(latest === null ? Infinity : toUtcMillis(latest) + 86_400_000 - 1);
  });

  it('describes single ends at their stated precision', () => {
    expect(describeEnd(20000930, 'day')).toBe('2000 September 30');
    expect(describeStart(19230601, 'month')).toBe('1923 June');
    expect(describeStart(19230101, 'day')).toBe('1923 January 1');
    expect(describeEnd(19421231, 'year')).toBe('1942');
  });
});
