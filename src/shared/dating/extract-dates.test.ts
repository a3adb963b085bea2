import { describe, expect, it } from 'vitest';
import { extractDates } from './extract-dates';
import type { Precision } from './types';

// A fixed reference year keeps two-digit years and the "not in the future"
// rule independent of when the tests run.
const referenceYear = 2025;

type Expected = [earliest: number, latest: number];

// Real-world strings: captions, postmarks, and notes transcribed from the backs of prints.
const FINDS_DATES: [text: string, expected: Expected[]][] = [
  ['Grandma and Uncle Joe, Xmas 1942', [[19421220, 19421231]]],
  ["Taken at Coney Island summer '61", [[19610601, 19610831]]],
  ['POSTMARK BROOKLYN N.Y. JUN 12 1947 3 PM', [[19470612, 19470612]]],
  ['c. 1935 – Ford dealership', [[19350101, 19351231]]],
  ['Mother on the porch, 1947', [[19470101, 19471231]]],
  ["Bobby's first bike '47", [[19470101, 19471231]]],
  ['Wedding day, June 12, 1947', [[19470612, 19470612]]],
  ['Wedding day, Sunday, June 12th, 1947', [[19470612, 19470612]]],
  ['Married 12 June 1947 at St. Mary’s', [[19470612, 19470612]]],
  ['the 3rd of Sept. 1938, Aunt Ida', [[19380903, 19380903]]],
  ['12.6.47', [[19470612, 19470612]]],
  ['Printed 15/03/52', [[19520315, 19520315]]],
  ['developed 12/25/1952', [[19521225, 19521225]]],
  ['12/06/1947 (date on sleeve)', [[19470612, 19471206]]],
  ['Jun 1947 – Lake George', [[19470601, 19470630]]],
  ["Dad's new Buick, June '47", [[19470601, 19470630]]],
  ["Rec'd Mar 3 '48", [[19480303, 19480303]]],
  ['Jan-Mar 1947, slides', [[19470101, 19470331]]],
  // General rules the held-out corpus found missing (test/dating/notation-holdout.tsv).
  ['Snow, Jan/Feb 1947', [[19470101, 19470228]]],
  ['Dec./Jan. 1947', [[19461201, 19470131]]],
  ['Boxing Day 1910, the meet', [[19101226, 19101226]]],
  ["St Stephen's Day 1910", [[19101226, 19101226]]],
  ['zweiter Weihnachtstag 1910', [[19101226, 19101226]]],
  ['Santo Stefano 1910', [[19101226, 19101226]]],
  ['tweede kerstdag 1910', [[19101226, 19101226]]],
  ['Kodachrome slide mount 8/1945', [[19450801, 19450831]]],
  ['Kodak Velox paper, 1940s', [[19400101, 19491231]]],
  ["Uncle Frank in the Navy, '40s", [[19400101, 19491231]]],
  ['Sometime in the forties, Chicago', [[19400101, 19491231]]],
  ['dance hall in the nineteen-twenties', [[19200101, 19291231]]],
  ['ca. 1935', [[19350101, 19351231]]],
  ['circa 1935, studio portrait', [[19350101, 19351231]]],
  ['abt 1935', [[19350101, 19351231]]],
  ['Farm auction [193?]', [[19300101, 19391231]]],
  ['School group, [193-]', [[19300101, 19391231]]],
  ['Christmas morning, Xmas 1952', [[19521220, 19521231]]],
  ["Christmas '52 at Grandpa's", [[19521220, 19521231]]],
  ['Easter 1938, church steps', [[19380410, 19380424]]],
  ['Easter Sunday 1938', [[19380417, 19380417]]],
  ["New Year's Eve 1949 party", [[19491231, 19491231]]],
  ['Winter 1944 – snow on Elm St', [[19431201, 19450228]]],
  ['Winter 1944-45, the Ardennes', [[19441201, 19450228]]],
  ['the fall of 1938', [[19380901, 19381130]]],
  ['Postmark 12 JUN 47 HAMBURG', [[19470612, 19470612]]],
  ['JUN 12 1947', [[19470612, 19470612]]],
  ['Wien 12-VI-1947', [[19470612, 19470612]]],
  ['10.VIII.1929 Hochzeit', [[19290810, 19290810]]],
  ['1947 JUN 12 (lab stamp)', [[19470612, 19470612]]],
  ['Scanned 2019-05-04', [[20190504, 20190504]]],
  ['Main street parade, 1890s', [[18900101, 18991231]]],
  ['early 1920s, flapper dresses', [[19200101, 19231231]]],
  ['mid-1920s', [[19240101, 19261231]]],
  ['late 1930s – family car', [[19370101, 19391231]]],
  ['the late 30s', [[19370101, 19391231]]],
  ['1930s-1940s', [[19300101, 19491231]]],
  ['Mill workers 1935-1942', [[19350101, 19421231]]],
  ['Construction of the dam 1935–42', [[19350101, 19421231]]],
  ['between 1935 and 1942', [[19350101, 19421231]]],
  ['c. 1935-1942', [[19350101, 19421231]]],
  ['Taken before 1940', [[18260101, 19391231]]],
  ['not before 1950', [[19500101, 20251231]]],
  ['Tintype, late 19th century', [[18670101, 18991231]]],
  ['Carte de visite, 18--', [[18260101, 18991231]]],
  [
    'Spring 1950 and Summer 1951',
    [
      [19500301, 19500531],
      [19510601, 19510831],
    ],
  ],
  [
    'Xmas 1952 – 12/25/52',
    [
      [19521220, 19521231],
      [19521225, 19521225],
    ],
  ],
  ['Lot 12, neg. no. 1935, c. 1920', [[19200101, 19201231]]],
  ['Photo by Smith Studio, 1947 Main St., Chicago, 1938', [[19380101, 19381231]]],
  ['Aunt May 1947', [[19470101, 19471231]]],
  ['Aunt May, June 12, 1947', [[19470612, 19470612]]],
];

const FINDS_NOTHING: string[] = [
  'Lot No. 1947 – photographer unknown',
  'No. 1947',
  '#1947',
  'Acc. 1947.12.3',
  '1947.12.3',
  'Neg. 1935',
  'Page 1938',
  'Price $1947',
  '£1947 the pair',
  '1947 pages',
  '1947 Main Street',
  '1947 W. 5th St.',
  'Call TRafalgar 7-1947',
  'Phone (212) 555-1947',
  '(212) 555 1947',
  'Tel. 1947',
  'Room 1947',
  '1,947 copies',
  'Serial 219470',
  'A1947',
  'Engraving dated 1825',
  'Time capsule to open 2031',
  "Mom's 47th birthday",
  'Aunt May in her forties',
  'Evening at the lake', // no digits at all
  'Page 8/45',
];

describe('extractDates', () => {
  it.each(FINDS_DATES)('finds the dates in %j', (text, expected) => {
    const found = extractDates(text, { referenceYear });
    expect(found.map((f) => [f.earliest, f.latest])).toEqual(expected);
  });

  it.each(FINDS_NOTHING.map((text) => [text]))('finds no photo date in %j', (text) => {
    expect(extractDates(text, { referenceYear })).toEqual([]);
  });

  it('reports the exact substring, its offset, and why', () => {
    const text = 'POSTMARK BROOKLYN N.Y. JUN 12 1947 3 PM';
    const [found] = extractDates(text, { referenceYear });
    expect(found).toMatchObject({ text: 'JUN 12 1947', index: 23, precision: 'day', approximate: false });
    expect(text.slice(found.index, found.index + found.text.length)).toBe(found.text);
    expect(found.reason).toContain('JUN 12 1947');
  });

  it.each<[string, string, Precision, boolean]>([
    ['c. 1935 – Ford dealership', 'c. 1935', 'year', true],
    ['ca. 1935', 'ca. 1935', 'year', true],
    ['circa 1935', 'circa 1935', 'year', true],
    ['abt 1935', 'abt 1935', 'year', true],
    ['about 1935', 'about 1935', 'year', true],
    ['~1935', '~1935', 'year', true],
    ['c1935', 'c1935', 'year', true],
    ['[1935?]', '[1935?]', 'year', true],
    ['193?', '193?', 'decade', true],
    ['193-', '193-', 'decade', true],
    ['1947', '1947', 'year', false],
    ['1940s', '1940s', 'decade', false],
    ['Summer 1961', 'Summer 1961', 'season', false],
    ['19th century', '19th century', 'century', false],
    ['Jun 1947', 'Jun 1947', 'month', false],
  ])('in %j matches %j with precision %s, approximate %s', (text, matched, precision, approximate) => {
    const [found] = extractDates(text, { referenceYear });
    expect(found).toMatchObject({ text: matched, precision, approximate });
  });

  it('is more confident of a written date than of a bare two-digit year', () => {
    const [written] = extractDates('June 12, 1947', { referenceYear });
    const [year] = extractDates('1947', { referenceYear });
    const [twoDigit] = extractDates("'47", { referenceYear });
    expect(written.confidence).toBeGreaterThan(year.confidence);
    expect(year.confidence).toBeGreaterThan(twoDigit.confidence);
  });

  it('lowers confidence when day and month could be swapped', () => {
    const [ambiguous] = extractDates('06/12/1947', { referenceYear });
    const [clear] = extractDates('25/12/1947', { referenceYear });
    expect(ambiguous.confidence).toBeLessThan(clear.confidence);
    expect(ambiguous.reason).toMatch(/ambiguous/);
  });

  it('resolves two-digit years into the 1900s, or the 1800s when the 1900s would be in the future', () => {
    expect(extractDates("'47", { referenceYear: 2025 })[0]).toMatchObject({ earliest: 19470101 });
    expect(extractDates("'05", { referenceYear: 2025 })[0]).toMatchObject({ earliest: 19050101 });
    expect(extractDates("'47", { referenceYear: 1930 })[0]).toMatchObject({ earliest: 18470101 });
    // 1820 is before photography, so "'20" with reference year 1900 is no photo date.
    expect(extractDates("'20", { referenceYear: 1900 })).toEqual([]);
  });

  it('rejects a reference year it cannot use', () => {
    expect(() => extractDates('1947', { referenceYear: 1800 })).toThrow(RangeError);
    expect(() => extractDates('1947', { referenceYear: 2025.5 })).toThrow(RangeError);
  });

  it('drops years after the reference year', () => {
    expect(extractDates('1990', { referenceYear: 1980 })).toEqual([]);
    expect(extractDates('1990', { referenceYear: 1990 })).toHaveLength(1);
  });

  it('clips a period that straddles the invention of photography', () => {
    expect(extractDates('1820s', { referenceYear })).toMatchObject([{ earliest: 18260101, latest: 18291231 }]);
  });

  it('keeps only the most specific of overlapping matches', () => {
    const found = extractDates('Taken June 12, 1947 (1947)', { referenceYear });
    expect(found.map((f) => f.text)).toEqual(['June 12, 1947', '1947']);
  });

  it('returns the dates in text order', () => {
    const found = extractDates('1950, then 1940, then Jun 1930', { referenceYear });
    expect(found.map((f) => f.index)).toEqual([0, 11, 22]);
  });
});

describe('approximate words with their article', () => {
  it('reads Italian "verso il 1925" as approximate, as "verso 1925" is', () => {
    for (const text of ['verso il 1925', 'verso 1925']) {
      expect(extractDates(text, { referenceYear })[0], text).toMatchObject({
        earliest: 19250101,
        approximate: true,
        edtf: '1925~',
      });
    }
  });
});

describe('open-ended years', () => {
  it('mark their open side open, as a range written with a dash does ("1906 -")', () => {
    const notBefore = extractDates('[not before 1906]', { referenceYear })[0];
    expect(notBefore).toMatchObject({ earliest: 19060101, ends: { earliest: 'year', latest: null }, edtf: '1906/..' });
    expect(extractDates('1906 -', { referenceYear })[0].edtf).toBe(notBefore.edtf);
    expect(extractDates('no later than 1939', { referenceYear })[0]).toMatchObject({
      latest: 19391231,
      ends: { earliest: null, latest: 'year' },
      edtf: '../1939',
    });
    // "before" excludes the year named.
    expect(extractDates('before 1940', { referenceYear })[0].edtf).toBe('../1939');
  });
});
