// Dates written with a month name: "June 12, 1947", "12th of June 1947",
// "JUN 12 1947", "12 JUN 47", "1947 JUN 12", "Jun. 1947", "June 12-14, 1947",
// and ISO "1947-06-12". chrono-node knows the many spellings of these; we only
// use its month-name parsers (and ISO year-month-day), because its other
// parsers read times, weekdays and US-style slash dates, which we either do
// not want or handle ourselves (numeric-dates.ts).
import { casual, type Chrono, type ParsedComponents, type ParsedResult } from 'chrono-node';
import type { FoundDate, Precision } from './types';
import { dayNum, isValidDate, monthEnd } from './daynum';
import {
  APOSTROPHE,
  CONFIDENCE,
  collectMatches,
  type DateRule,
  type ExtractionContext,
  MONTH_NAME,
  monthFromName,
  readYearToken,
} from './extraction-kit';
import { resolveTwoDigitYear } from './photo-era';

const WANTED_CHRONO_PARSERS = [
  'ENMonthNameLittleEndianParser', // 12 June 1947, 12th of June, 1947, 12-JUN-47
  'ENMonthNameMiddleEndianParser', // June 12, 1947, JUN 12 1947
  'ENMonthNameParser', // June 1947, Jun. 1947, August, 1947
  'ENYearMonthDayParser', // 1947 JUN 12, 1947-06-12
];

// Parser classes are not exported, so we select them by class name; fail
// loudly at start-up if an upgrade of chrono-node renames them.
function buildMonthNameChrono(): Chrono {
  const chrono = casual.clone();
  chrono.parsers = chrono.parsers.filter((parser) => WANTED_CHRONO_PARSERS.includes(parser.constructor.name));
  if (chrono.parsers.length !== WANTED_CHRONO_PARSERS.length) {
    throw new Error(`chrono-node no longer provides all of: ${WANTED_CHRONO_PARSERS.join(', ')}`);
  }
  return chrono;
}

const monthNameChrono = buildMonthNameChrono();

interface CalendarPoint {
  year: number;
  month: number;
  day: number | null;
}

function readComponents(components: ParsedComponents, writtenYear: number): CalendarPoint | null {
  if (!components.isCertain('month')) return null;
  const month = components.get('month');
  if (month === null) return null;
  const day = components.isCertain('day') ? components.get('day') : null;
  if (!isValidDate(writtenYear, month, day ?? 1)) return null;
  return { year: writtenYear, month, day };
}

// chrono places two-digit years near its reference date ("12 JUN 47" -> 2047);
// when the four digits are not in the text, the year was written with two and
// we re-read it with our own rule.
function writtenYear(result: ParsedResult, components: ParsedComponents, context: ExtractionContext): number | null {
  const year = components.get('year');
  if (year === null) return null;
  if (result.text.includes(String(year))) return year;
  return resolveTwoDigitYear(year % 100, context.referenceYear);
}

function readChronoResult(result: ParsedResult, context: ExtractionContext): FoundDate | null {
  // A date without a year ("June 12") cannot date a photo.
  if (!result.start.isCertain('year')) return null;
  const startYear = writtenYear(result, result.start, context);
  if (startYear === null) return null;
  const start = readComponents(result.start, startYear);
  if (!start) return null;
  const endYear = result.end ? writtenYear(result, result.end, context) : null;
  const end = result.end && endYear !== null ? readComponents(result.end, endYear) : start;
  if (!end) return null;

  const earliest = dayNum(start.year, start.month, start.day ?? 1);
  const latest = end.day === null ? monthEnd(end.year, end.month) : dayNum(end.year, end.month, end.day);
  if (earliest > latest) return null;
  const precision: Precision = start.day === null ? 'month' : 'day';
  const twoDigitYear = !result.text.includes(String(startYear));
  const confidence =
    precision === 'month' ? CONFIDENCE.monthYear : twoDigitYear ? CONFIDENCE.writtenDateTwoDigitYear : CONFIDENCE.writtenDate;
  return {
    text: result.text,
    index: result.index,
    earliest,
    latest,
    precision,
    approximate: false,
    confidence,
    reason: `written ${precision === 'month' ? 'month' : 'date'} '${result.text}'`,
  };
}

export const findWrittenDates: DateRule = (text, context) => {
  const reference = new Date(Date.UTC(context.referenceYear, 11, 31));
  return monthNameChrono
    .parse(text, reference)
    .map((result) => readChronoResult(result, context))
    .filter((found): found is FoundDate => found !== null);
};

// chrono does not read an apostrophe year after a month: "June '47",
// "Mar 3 '48", "3rd Mar. '48".
const ORDINAL = '(?:st|nd|rd|th)?';
const MONTH_APOSTROPHE_YEAR = new RegExp(
  `(?:(?<!\\d)(\\d{1,2})${ORDINAL}\\s+(?:of\\s+)?)?\\b(${MONTH_NAME})\\.?(?:\\s*(\\d{1,2})${ORDINAL})?,?\\s*${APOSTROPHE}(\\d\\d)(?!\\d)`,
  'gi',
);

export const findMonthWithApostropheYear: DateRule = (text, context) =>
  collectMatches(MONTH_APOSTROPHE_YEAR, text, (match) => {
    const [, dayBefore, monthName, dayAfter, yearDigits] = match;
    const month = monthFromName(monthName);
    const year = readYearToken(yearDigits, context);
    if (month === null || year === null) return null;
    if (dayBefore !== undefined && dayAfter !== undefined) return null;
    const dayText = dayBefore ?? dayAfter;
    if (dayText === undefined) {
      return {
        earliest: dayNum(year, month, 1),
        latest: monthEnd(year, month),
        precision: 'month',
        approximate: false,
        confidence: CONFIDENCE.monthYear,
        reason: `written month '${match[0]}' with two-digit year read as ${year}`,
      };
    }
    const day = Number(dayText);
    if (!isValidDate(year, month, day)) return null;
    return {
      earliest: dayNum(year, month, day),
      latest: dayNum(year, month, day),
      precision: 'day',
      approximate: false,
      confidence: CONFIDENCE.writtenDateTwoDigitYear,
      reason: `written date '${match[0]}' with two-digit year read as ${year}`,
    };
  });

// chrono reads "June - July 1947" as "June" and "July 1947"; a span of months
// in one year is common on slides and albums ("Jan-Mar 1947"). A span that
// wraps the year ("Dec-Feb 1947") is ambiguous and left to the other rules.
const MONTH_SPAN = new RegExp(
  `\\b(${MONTH_NAME})\\.?\\s*(?:-|–|—|to|through|thru|&|and)\\s*(${MONTH_NAME})\\.?,?\\s*(1[89]\\d\\d|20\\d\\d)(?!\\d)`,
  'gi',
);

export const findMonthSpans: DateRule = (text) =>
  collectMatches(MONTH_SPAN, text, (match) => {
    const first = monthFromName(match[1]);
    const last = monthFromName(match[2]);
    const year = Number(match[3]);
    if (first === null || last === null || last <= first) return null;
    return {
      earliest: dayNum(year, first, 1),
      latest: monthEnd(year, last),
      precision: 'month',
      approximate: false,
      confidence: CONFIDENCE.monthYear,
      reason: `span of months '${match[0]}'`,
    };
  });
