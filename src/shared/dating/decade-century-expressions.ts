// Decades and centuries: "1940s", "'40s", "the 40s", "the forties",
// "nineteen-forties", "early 1920s", "late '30s", "1930s-1940s",
// catalogue-style "193-" / "193?" / "18--", and "19th century".
import type { Precision } from './types';
import { yearEnd, yearStart } from './daynum';
import {
  APOSTROPHE,
  CONFIDENCE,
  collectMatches,
  type DateRule,
  type PartOfPeriod,
  type Reading,
  readPartOfPeriod,
} from './extraction-kit';
import { resolveTwoDigitYear } from './photo-era';

// "early", "mid", "late" take the first four, middle three and last three
// years of a decade (1920–23, 1924–26, 1927–29) and thirds of a century
// (00–33, 34–66, 67–99).
const PARTS: Record<number, Record<PartOfPeriod, [number, number]>> = {
  10: { early: [0, 3], mid: [4, 6], late: [7, 9] },
  100: { early: [0, 33], mid: [34, 66], late: [67, 99] },
};

function span(firstYear: number, length: 10 | 100, part: PartOfPeriod | null): [number, number] {
  if (!part) return [firstYear, firstYear + length - 1];
  const [from, to] = PARTS[length][part];
  return [firstYear + from, firstYear + to];
}

interface PeriodReading {
  firstYear: number;
  length: 10 | 100;
  part: PartOfPeriod | null;
  lastFirstYear?: number; // for "1930s-1940s": first year of the closing decade
  approximate?: boolean;
  confidence: number;
  reason: string;
}

function toReading(period: PeriodReading): Reading {
  const [from] = span(period.firstYear, period.length, period.part);
  const [, to] = span(period.lastFirstYear ?? period.firstYear, period.length, period.part);
  const precision: Precision = period.length === 10 ? 'decade' : 'century';
  return {
    earliest: yearStart(from),
    latest: yearEnd(to),
    precision,
    approximate: period.approximate ?? false,
    confidence: period.confidence,
    reason: period.reason,
  };
}

const PART = '(?:\\b(early|mid|late)[\\s-]*)?';

// "1940s", "1940's", "early 1920s", "1930s-1940s". A year ending in 00
// ("1900s", "1800s") names the century, as it does in ordinary speech.
const DECADE_DIGITS = new RegExp(
  `${PART}(?<!\\d)(1[89]\\d0|20\\d0)${APOSTROPHE}?s(?:\\s*(?:-|–|—|to)\\s*(1[89]\\d0|20\\d0)${APOSTROPHE}?s)?(?![\\p{L}\\d])`,
  'giu',
);

export const findDecades: DateRule = (text) =>
  collectMatches(DECADE_DIGITS, text, (match) => {
    const part = readPartOfPeriod(match[1]);
    const first = Number(match[2]);
    const last = match[3] ? Number(match[3]) : undefined;
    if (last !== undefined && last <= first) return null;
    const century = first % 100 === 0 && last === undefined;
    return toReading({
      firstYear: first,
      length: century ? 100 : 10,
      part,
      lastFirstYear: last,
      confidence: century ? CONFIDENCE.century : CONFIDENCE.decade,
      reason: `${century ? 'century' : 'decade'} '${match[0]}'`,
    });
  });

// "'40s" (apostrophe required) or "the 40s": without either, "in her 40s" is an age.
const DECADE_TWO_DIGITS = new RegExp(
  `(?:${PART}(?<![\\p{L}\\d])${APOSTROPHE}|\\bthe\\s+(?:(early|mid|late)[\\s-]*)?${APOSTROPHE}?)([1-9]0)${APOSTROPHE}?s(?![\\p{L}\\d])`,
  'giu',
);

export const findTwoDigitDecades: DateRule = (text, context) =>
  collectMatches(DECADE_TWO_DIGITS, text, (match) => {
    const first = resolveTwoDigitYear(Number(match[3]), context.referenceYear);
    return toReading({
      firstYear: first,
      length: 10,
      part: readPartOfPeriod(match[1] ?? match[2]),
      confidence: CONFIDENCE.decade,
      reason: `decade '${match[0]}' read as the ${first}s`,
    });
  });

const DECADE_WORDS = ['twenties', 'thirties', 'forties', 'fifties', 'sixties', 'seventies', 'eighties', 'nineties'];

// "the forties" needs "the" ("her forties" is an age); "nineteen-forties" is unambiguous.
const DECADE_IN_WORDS = new RegExp(
  `(?:\\bthe\\s+(?:(early|mid|late)[\\s-]*)?|${PART}\\b(eighteen|nineteen)[\\s-]*)(${DECADE_WORDS.join('|')})\\b`,
  'gi',
);

export const findDecadesInWords: DateRule = (text, context) =>
  collectMatches(DECADE_IN_WORDS, text, (match) => {
    const tens = (DECADE_WORDS.indexOf(match[4].toLowerCase()) + 2) * 10;
    const centuryWord = match[3]?.toLowerCase();
    const first =
      centuryWord === 'eighteen'
        ? 1800 + tens
        : centuryWord === 'nineteen'
          ? 1900 + tens
          : resolveTwoDigitYear(tens, context.referenceYear);
    return toReading({
      firstYear: first,
      length: 10,
      part: readPartOfPeriod(match[1] ?? match[2]),
      confidence: CONFIDENCE.decadeInWords,
      reason: `decade in words '${match[0]}' read as the ${first}s`,
    });
  });

// Library-catalogue forms for an unknown last digit (AACR2 1.4F7, DCRM): "[193-]", "193x",
// "193_" (some year of the 1930s: EDTF '193X'), "[193-?]" and "193?" (probably the 1930s:
// '1930?/1939?'), and likewise "[18--]" ('18XX') and "[18--?]". They say outright that the
// year is not known, so they are approximate evidence.
const UNKNOWN_DIGITS =
  /(?<!\d)(?:(1[89]\d|20\d)(?:(-|–|_|x|X)(\?)?|(\?))|(1[89]|20)(?:--|__|xx|XX)(\?)?|(1[89]|20)(\?\?))(?![\d\p{L}?-])/gu;

export const findUnknownDigitYears: DateRule = (text) =>
  collectMatches(UNKNOWN_DIGITS, text, (match) => {
    const [, decadeDigits, , decadeQuestion, decadeAsQuestion, centuryDigits, centuryQuestion, centuryAsQuestions] = match;
    const decade = decadeDigits !== undefined;
    const first = decade ? Number(decadeDigits) * 10 : Number(centuryDigits ?? centuryAsQuestions) * 100;
    const uncertain = Boolean(decade ? decadeQuestion || decadeAsQuestion : centuryQuestion || centuryAsQuestions);
    const length = decade ? 10 : 100;
    const reading = toReading({
      firstYear: first,
      length,
      part: null,
      approximate: true,
      confidence: decade ? CONFIDENCE.decade : CONFIDENCE.century,
      reason: `year with unknown ${decade ? 'last digit' : 'last two digits'} '${match[0]}'${uncertain ? ", '?': probably" : ''}`,
    });
    const digits = String(first).slice(0, decade ? 3 : 2);
    const edtf = uncertain ? `${first}?/${first + length - 1}?` : `${digits}${decade ? 'X' : 'XX'}`;
    return { ...reading, edtf, ...(uncertain ? { uncertain } : {}) };
  });

// "19th century", "late 19th c.", "20th-century". By archival habit the 19th
// century is 1800–1899 (as EDTF '18XX'), not the strict 1801–1900.
const CENTURY = new RegExp(`${PART}\\b(19|20|21)(?:th|st)[\\s-]*(?:century|cent\\.|c\\.)`, 'gi');

export const findCenturies: DateRule = (text) =>
  collectMatches(CENTURY, text, (match) =>
    toReading({
      firstYear: (Number(match[2]) - 1) * 100,
      length: 100,
      part: readPartOfPeriod(match[1]),
      confidence: CONFIDENCE.century,
      reason: `century '${match[0]}'`,
    }),
  );
