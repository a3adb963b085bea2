// All-numeric dates ("12.6.47", "12/06/1947", "6-12-47") and dates with a
// Roman-numeral month ("12-VI-1947", "12 VI 47", a European postmark habit).
import { dayNum, isValidDate, MONTH_NAMES, monthEnd, parts, toIsoDate } from './daynum';
import {
  CONFIDENCE,
  collectMatches,
  type DateRule,
  type ExtractionContext,
  isTwoDigitYear,
  type Reading,
  readYearToken,
} from './extraction-kit';
import { NUMERIC_ORDER_CONVENTION } from './notation-conventions';
import { setEdtf } from './reading-edtf';

// Not inside a longer run of digits and separators: "1947.12.3" and
// "212-555-1947" must not yield "12.3" or "55-19-47".
const NUMERIC_DATE = /(?<![\d./-])(\d{1,2})([./-])(\d{1,2})\2(1[89]\d\d|20\d\d|\d\d)(?!\d|[./-]\d)/g;

function describe(date: number): string {
  const { year, month, day } = parts(date);
  return `${day} ${MONTH_NAMES[month - 1]} ${year}`;
}

/**
 * Which of day-month and month-day applies. A number above 12 can only be a day, so a date that
 * reads one way only ("25/12/1906") is read that way whatever the library's order. Otherwise the
 * library's setting (Settings → numeric dates) decides, and the other reading is kept for the
 * photo screen to offer. Undecided, as Circa always read them:
 * - dots ("12.6.47") are the continental day-first style: read D.M, and M.D
 *   only when D.M is impossible;
 * - slashes and hyphens are used both ways (British D/M, American M/D): if
 *   both readings are real and differ, the interval spans both readings
 *   (June 12–December 6) with low confidence, rather than guess and be wrong.
 */
function readNumericDate(match: RegExpExecArray, context: ExtractionContext): Reading | null {
  const [, first, separator, second, yearToken] = match;
  const year = readYearToken(yearToken, context);
  if (year === null) return null;
  const a = Number(first);
  const b = Number(second);
  const dayFirst = isValidDate(year, b, a) ? dayNum(year, b, a) : null;
  const monthFirst = isValidDate(year, a, b) ? dayNum(year, a, b) : null;
  const confidence = isTwoDigitYear(yearToken) ? CONFIDENCE.numericDateTwoDigitYear : CONFIDENCE.numericDate;
  const both = dayFirst !== null && monthFirst !== null && dayFirst !== monthFirst;
  const single = (day: number, how: 'day-first' | 'month-first'): Reading => {
    const other = how === 'day-first' ? monthFirst : dayFirst;
    const otherHow = how === 'day-first' ? 'month first' : 'day first';
    return {
      earliest: day,
      latest: day,
      precision: 'day',
      approximate: false,
      confidence,
      reason: `numeric date '${match[0]}' read ${how} as ${describe(day)}`,
      edtf: toIsoDate(day),
      ...(both ? { convention: NUMERIC_ORDER_CONVENTION[context.dateOrder] } : {}),
      otherReading:
        both && other !== null
          ? { earliest: other, latest: other, edtf: toIsoDate(other), reading: `${otherHow}: ${describe(other)}` }
          : null,
    };
  };

  if (both && context.dateOrder === 'month-first') return single(monthFirst, 'month-first');
  if (both && context.dateOrder === 'day-first') return single(dayFirst, 'day-first');
  if (separator === '.' && dayFirst !== null) return single(dayFirst, 'day-first');
  if (both) {
    return {
      earliest: Math.min(dayFirst, monthFirst),
      latest: Math.max(dayFirst, monthFirst),
      precision: 'day',
      approximate: false,
      confidence: CONFIDENCE.ambiguousNumericDate,
      reason: `ambiguous numeric date '${match[0]}': ${describe(dayFirst)} or ${describe(monthFirst)}`,
      edtf: setEdtf([toIsoDate(Math.min(dayFirst, monthFirst)), toIsoDate(Math.max(dayFirst, monthFirst))]),
      convention: NUMERIC_ORDER_CONVENTION.undecided,
    };
  }
  if (dayFirst !== null) return single(dayFirst, 'day-first');
  if (monthFirst !== null) return single(monthFirst, 'month-first');
  return null;
}

export const findNumericDates: DateRule = (text, context) =>
  collectMatches(NUMERIC_DATE, text, (match) => readNumericDate(match, context));

const ROMAN_MONTHS = ['I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X', 'XI', 'XII'];

// Upper case only: lower-case "i", "v", "x" are too often ordinary letters.
const ROMAN_MONTH_DATE =
  /(?<![\d./-])(\d{1,2})[\s./-]+(XII|XI|X|IX|VIII|VII|VI|V|IV|III|II|I)[\s./-]+(1[89]\d\d|20\d\d|\d\d)(?!\d)/g;

export const findRomanMonthDates: DateRule = (text, context) =>
  collectMatches(ROMAN_MONTH_DATE, text, (match) => {
    const [, dayText, roman, yearToken] = match;
    const year = readYearToken(yearToken, context);
    const month = ROMAN_MONTHS.indexOf(roman) + 1;
    const day = Number(dayText);
    if (year === null || !isValidDate(year, month, day)) return null;
    return {
      earliest: dayNum(year, month, day),
      latest: dayNum(year, month, day),
      precision: 'day',
      approximate: false,
      confidence: isTwoDigitYear(yearToken) ? CONFIDENCE.numericDateTwoDigitYear : CONFIDENCE.numericDate,
      reason: `date with Roman-numeral month '${match[0]}' read as ${describe(dayNum(year, month, day))}`,
    };
  });

// Month and four-digit year with a slash: "8/1945" (date stamps, slide
// mounts). Not with a hyphen: "TRafalgar 7-1947" is a telephone number.
// Month and two-digit year ("8/45") is left alone: it reads just as well as
// a fraction, a page count or a score.
const NUMERIC_MONTH_YEAR = /(?<![\d./-])(\d{1,2})\/(1[89]\d\d|20\d\d)(?!\d|[./-]\d)/g;

export const findNumericMonthYears: DateRule = (text) =>
  collectMatches(NUMERIC_MONTH_YEAR, text, (match) => {
    const month = Number(match[1]);
    const year = Number(match[2]);
    if (month < 1 || month > 12) return null;
    return {
      earliest: dayNum(year, month, 1),
      latest: monthEnd(year, month),
      precision: 'month',
      approximate: false,
      confidence: CONFIDENCE.numericMonthYear,
      reason: `numeric month '${match[0]}' read as ${MONTH_NAMES[month - 1]} ${year}`,
    };
  });
