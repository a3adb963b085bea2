// Every example of issue 27 ("Read dates as archives write them") read to the day, with its
// EDTF. Each of these read as the whole year, the wrong day or nothing before the archival
// reader (archival-dates.ts) and the catalogue forms of decade-century-expressions.ts.
import { describe, expect, it } from 'vitest';
import { extractDates } from '../../src/shared/dating';
import { CATALOGUE_ENTRIES } from '../../src/shared/dating/history';
import { noteEvidence } from '../../src/main/dating/note-evidence';

const referenceYear = 2025;
type Row = [text: string, intervals: [number, number][], edtf: string];

const EXAMPLES: Row[] = [
  // year first (DACS)
  ['1906 March 17', [[19060317, 19060317]], '1906-03-17'],
  ['1906 4 July', [[19060704, 19060704]], '1906-07-04'],
  ['1906 December', [[19061201, 19061231]], '1906-12'],
  ['1906 Dec', [[19061201, 19061231]], '1906-12'],
  ['1906 July-September', [[19060701, 19060930]], '1906-07/1906-09'],
  ['1906 Jul.-Sept.', [[19060701, 19060930]], '1906-07/1906-09'],
  ['1906 July 4-10', [[19060704, 19060710]], '1906-07-04/1906-07-10'],
  ['1906 4-10 July', [[19060704, 19060710]], '1906-07-04/1906-07-10'],
  // ranges whose ends keep their precision
  ['4 May - 10 July 1906', [[19060504, 19060710]], '1906-05-04/1906-07-10'],
  ['July 1906 - 1919', [[19060701, 19191231]], '1906-07/1919'],
  ['1906 July 4 - 1919 March', [[19060704, 19190331]], '1906-07-04/1919-03'],
  // lists
  [
    'July 4 and 5 1906',
    [
      [19060704, 19060704],
      [19060705, 19060705],
    ],
    '[1906-07-04,1906-07-05]',
  ],
  [
    '4 & 5 July 1906',
    [
      [19060704, 19060704],
      [19060705, 19060705],
    ],
    '[1906-07-04,1906-07-05]',
  ],
  [
    '1906 July and August',
    [
      [19060701, 19060731],
      [19060801, 19060831],
    ],
    '[1906-07,1906-08]',
  ],
  [
    '1907 April 30, 1907 June 4',
    [
      [19070430, 19070430],
      [19070604, 19070604],
    ],
    '[1907-04-30,1907-06-04]',
  ],
  // uncertainty keeps the precision
  ['July 4? 1906', [[19060704, 19060704]], '1906-07-04?'],
  // a word of doubt is uncertainty ('?'), not approximation ('~'), kept at the precision written
  ['probably 1906', [[19060101, 19061231]], '1906?'],
  ['possibly July 1906', [[19060701, 19060731]], '1906-07?'],
  // bound words before a day or a month, as before a year: open on one side, the date kept
  ['[not after Aug. 21, 1906]', [[18260101, 19060821]], '../1906-08-21'],
  ['before July 1906', [[18260101, 19060630]], '../1906-06'],
  ['not before 1906 March 17', [[19060317, 20251231]], '1906-03-17/..'],
  ['[July] 4 1906?', [[19060704, 19060704]], '1906-07-04?'],
  ['ca. 1906', [[19060101, 19061231]], '1906~'],
  [
    '1906 or 1907',
    [
      [19060101, 19061231],
      [19070101, 19071231],
    ],
    '[1906,1907]',
  ],
  ['[190-?]', [[19000101, 19091231]], '1900?/1909?'],
  ['[19--]', [[19000101, 19991231]], '19XX'],
  // seasons after the year or abbreviated (meteorological, northern hemisphere)
  ['1906 Spring', [[19060301, 19060531]], '1906-21'],
  ['Spr. 1906', [[19060301, 19060531]], '1906-21'],
  ['Summ. 1906', [[19060601, 19060831]], '1906-22'],
  ['Aut. 1906', [[19060901, 19061130]], '1906-23'],
  ['win. 1906', [[19051201, 19070228]], '1906-24'],
  // months in other languages
  ['août 4 1906', [[19060804, 19060804]], '1906-08-04'],
  ['agosto 4 1906', [[19060804, 19060804]], '1906-08-04'],
  // open ranges
  ['- 1906', [[18260101, 19061231]], '../1906'],
  ['1906 -', [[19060101, 20251231]], '1906/..'],
];

describe('issue 27 examples', () => {
  it.each(EXAMPLES)('reads %j to the day', (text, intervals, edtf) => {
    const found = extractDates(text, { referenceYear });
    expect(found.map((f) => [f.earliest, f.latest])).toEqual(intervals);
    expect(found[0].set ?? found[0].edtf).toBe(edtf);
  });

  it.each(['n.d.', 'undated', 'Route 66', 'No. 1950', 'Phone (212) 555-1906', 'Acc. no. 76-112'])(
    'reads no date in %j',
    (text) => {
      expect(extractDates(text, { referenceYear })).toEqual([]);
    },
  );

  it('invents no day from a number before a month', () => {
    expect(extractDates('Station 12, Juni 1906', { referenceYear }).map((f) => [f.earliest, f.latest])).toEqual([
      [19060601, 19060630],
    ]);
    expect(extractDates('4, 5 and 6 July 1910', { referenceYear })).toHaveLength(3);
  });

  it('keeps the precision each end was written with', () => {
    const [found] = extractDates('July 1906 - 1919', { referenceYear });
    expect(found.ends).toEqual({ earliest: 'month', latest: 'year' });
    expect(extractDates('- 1906', { referenceYear })[0].ends).toEqual({ earliest: null, latest: 'year' });
  });

  it('names the season convention it used', () => {
    const [found] = extractDates('1906 Spring', { referenceYear });
    expect(found.convention).toMatch(/meteorological, northern hemisphere/);
  });

  it('reads a numeric date by the library order, keeps the other reading, and reads an unambiguous one either way', () => {
    const monthFirst = extractDates('7/4/1906', { referenceYear, dateOrder: 'month-first' })[0];
    expect([monthFirst.earliest, monthFirst.edtf, monthFirst.otherReading?.edtf]).toEqual([19060704, '1906-07-04', '1906-04-07']);
    const dayFirst = extractDates('7/4/1906', { referenceYear, dateOrder: 'day-first' })[0];
    expect([dayFirst.earliest, dayFirst.edtf, dayFirst.otherReading?.edtf]).toEqual([19060407, '1906-04-07', '1906-07-04']);
    const undecided = extractDates('7/4/1906', { referenceYear, dateOrder: 'undecided' })[0];
    expect([undecided.earliest, undecided.latest, undecided.edtf]).toEqual([19060407, 19060704, '[1906-04-07,1906-07-04]']);
    for (const dateOrder of ['month-first', 'day-first', 'undecided'] as const) {
      expect(extractDates('25/12/1906', { referenceYear, dateOrder })[0]).toMatchObject({
        earliest: 19061225,
        otherReading: null,
      });
    }
  });
});

// The history examples gave no date at all; typed in a photo's notes they are now
// findings with their source (src/main/dating/note-evidence.ts), as OCR'd captions are.
describe('bound words before a day or a month claim no more than the text', () => {
  it('stands on the later of two readings for "not after"/"before", the earlier for "not before"/"after", in valid EDTF', () => {
    const read = (text: string) => extractDates(text, { referenceYear, dateOrder: 'undecided' })[0];
    // 7/4/1906 is 7 April or 4 July: the bound holds whichever was meant.
    expect(read('not after 7/4/1906')).toMatchObject({ earliest: 18260101, latest: 19060704, edtf: '../1906-07-04' });
    expect(read('before 7/4/1906')).toMatchObject({ earliest: 18260101, latest: 19060703, edtf: '../1906-07-03' });
    expect(read('not before 7/4/1906')).toMatchObject({ earliest: 19060407, edtf: '1906-04-07/..' });
    expect(read('after 7/4/1906')).toMatchObject({ earliest: 19060408, edtf: '1906-04-08/..' });
  });

  it('makes the reading not used the same bound, never a precise date', () => {
    const [found] = extractDates('not after 7/4/1906', { referenceYear, dateOrder: 'day-first' });
    expect(found).toMatchObject({ latest: 19060407, edtf: '../1906-04-07' });
    expect(found.otherReading).toEqual({
      earliest: 18260101,
      latest: 19060704,
      edtf: '../1906-07-04',
      reading: 'month first: not after 4 July 1906',
      ends: { earliest: null, latest: 'day' },
    });
  });

  it('reads a bound with nothing left inside the photographic era as no date, not as the date it names', () => {
    for (const text of ['after Dec. 31, 2025', 'before Jan. 1, 1826', 'after 2025', 'before 1826'])
      expect(extractDates(text, { referenceYear }), text).toEqual([]);
    expect(extractDates('after Dec. 30, 2025', { referenceYear })[0]).toMatchObject({
      earliest: 20251231,
      edtf: '2025-12-31/..',
    });
  });
});

describe('issue 27 history examples, as notes', () => {
  it.each([
    ['V-E Day, London', 'estimate', 19450508, 19450508, 've-day'],
    ['Coronation of George VI', 'estimate', 19370512, 19370512, 'coronation-george-vi'],
    ['between the wars', 'bound', 19181111, 19390901, 'interwar'],
    ['turn of the century', 'estimate', 18950101, 19051231, 'turn-of-the-century'],
  ] as const)('reads %j with its catalogue entry', (text, kind, earliest, latest, entryId) => {
    const [finding] = noteEvidence(text, 'undecided', CATALOGUE_ENTRIES);
    expect(finding).toMatchObject({ kind, earliest, latest, details: { history: { entryId, origin: 'catalogue' } } });
  });
});
