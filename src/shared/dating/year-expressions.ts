// Years on their own: "1947", "'47", ranges "1935-1942" / "1935–42" /
// "between 1935 and 1942", and open-ended "before 1940" / "after 1923".
// Whether a bare number is a year at all is decided later, by the context
// checks in not-a-date.ts ("No. 1947", "$1947", "1947 Main Street").
import { yearEnd, yearStart } from './daynum';
import { APOSTROPHE, CONFIDENCE, collectMatches, type DateRule } from './extraction-kit';
import { FIRST_PHOTOGRAPH_YEAR, resolveTwoDigitYear } from './photo-era';
import { rangeEdtf } from './reading-edtf';

const FOUR_DIGIT_YEAR = '1[89]\\d\\d|20\\d\\d';

// Four digits not embedded in a longer digit run ("219470" is no year).
const BARE_YEAR = new RegExp(`(?<!\\d)(${FOUR_DIGIT_YEAR})(?!\\d)`, 'g');

export const findYears: DateRule = (text) =>
  collectMatches(BARE_YEAR, text, (match) => {
    const year = Number(match[1]);
    return {
      earliest: yearStart(year),
      latest: yearEnd(year),
      precision: 'year',
      approximate: false,
      confidence: CONFIDENCE.year,
      reason: `year '${match[0]}'`,
    };
  });

// "'47" needs the apostrophe (a bare "47" is just a number) and must stand
// alone: not "Joe's 47", not "'47th".
const APOSTROPHE_YEAR = new RegExp(`(?<![\\p{L}\\d])${APOSTROPHE}(\\d\\d)(?![\\p{L}\\d])`, 'gu');

export const findApostropheYears: DateRule = (text, context) =>
  collectMatches(APOSTROPHE_YEAR, text, (match) => {
    const year = resolveTwoDigitYear(Number(match[1]), context.referenceYear);
    return {
      earliest: yearStart(year),
      latest: yearEnd(year),
      precision: 'year',
      approximate: false,
      confidence: CONFIDENCE.twoDigitYear,
      reason: `two-digit year '${match[0]}' read as ${year}`,
    };
  });

// The second year may be abbreviated to two digits ("1935–42"), taken in the
// century of the first. It must come after the first year, which also keeps
// ISO year-months such as "1947-06" from reading as 1947–1906.
const YEAR_RANGE = new RegExp(
  `(?:\\bbetween\\s+(${FOUR_DIGIT_YEAR})\\s+and\\s+|(?<!\\d)(${FOUR_DIGIT_YEAR})\\s*(?:-|–|—|/|\\bto\\b|\\bthrough\\b|\\bthru\\b|\\buntil\\b|\\btill\\b)\\s*)(${FOUR_DIGIT_YEAR}|\\d\\d)(?!\\d)`,
  'gi',
);

export const findYearRanges: DateRule = (text) =>
  collectMatches(YEAR_RANGE, text, (match) => {
    const first = Number(match[1] ?? match[2]);
    const secondToken = match[3];
    const second = secondToken.length === 2 ? Math.floor(first / 100) * 100 + Number(secondToken) : Number(secondToken);
    if (second <= first) return null;
    return {
      earliest: yearStart(first),
      latest: yearEnd(second),
      precision: 'year',
      approximate: false,
      confidence: CONFIDENCE.yearRange,
      reason: `range of years '${match[0]}' (${first}–${second})`,
    };
  });

// The open side is closed at the limits of the photographic era (1826, or the
// end of the reference year) so the interval sorts and filters, and marked open
// in `ends` and the EDTF ('1906/..', '../1939'), as an open range written with a
// dash is ("1906 -"). "before 1940" excludes 1940; "not after 1940" / "no later
// than 1940" include it. "pre" and "post" need their hyphen: "Evening Post 1947"
// is a newspaper, not a bound.
const OPEN_ENDED_YEAR = new RegExp(
  `\\b(not\\s+before|no\\s+earlier\\s+than|not\\s+after|no\\s+later\\s+than|before|prior\\s+to|pre-|after|post-)\\s*(${FOUR_DIGIT_YEAR})(?!\\d)`,
  'gi',
);

export const findOpenEndedYears: DateRule = (text, context) =>
  collectMatches(OPEN_ENDED_YEAR, text, (match) => {
    const phrase = match[1].toLowerCase().replace(/\s+/g, ' ').replace(/-$/, '');
    const year = Number(match[2]);
    const eraStart = yearStart(FIRST_PHOTOGRAPH_YEAR);
    const eraEnd = yearEnd(context.referenceYear);
    const interval: Record<string, [number, number]> = {
      'not before': [yearStart(year), eraEnd],
      'no earlier than': [yearStart(year), eraEnd],
      after: [yearStart(year + 1), eraEnd],
      post: [yearStart(year + 1), eraEnd],
      'not after': [eraStart, yearEnd(year)],
      'no later than': [eraStart, yearEnd(year)],
      before: [eraStart, yearEnd(year - 1)],
      'prior to': [eraStart, yearEnd(year - 1)],
      pre: [eraStart, yearEnd(year - 1)],
    };
    const bounds = interval[phrase];
    if (!bounds || bounds[0] > bounds[1]) return null;
    const openEnd = bounds[1] === eraEnd;
    const year4 = (day: number) => String(Math.floor(day / 10000));
    return {
      earliest: bounds[0],
      latest: bounds[1],
      precision: 'year',
      ends: openEnd ? { earliest: 'year', latest: null } : { earliest: null, latest: 'year' },
      edtf: openEnd ? rangeEdtf(year4(bounds[0]), null) : rangeEdtf(null, year4(bounds[1])),
      approximate: false,
      confidence: CONFIDENCE.openEnded,
      reason: `open-ended date '${match[0]}'`,
    };
  });
