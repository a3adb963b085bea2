// "not after Aug. 21, 1906", "before July 1906": a bound word before a date that a reader found
// to the day or month makes it an open-ended date, as "not after 1906" is for a year
// (year-expressions.ts). The open side is closed at the photographic era, marked open in `ends`
// and the EDTF ('../1906-08-21'); "before"/"after" exclude the date written, "not before",
// "not after", "no earlier/later than" include it, as for years.
//
// A bound claims no more than the text: when the date could be read two ways (7/4/1906 with no
// numeric order set: 7 April or 4 July), "not after" stands on the later reading and "not before"
// on the earlier one, so the bound holds whichever was meant. The reading not used, when one is
// offered, becomes the same bound on its own date: a bound never comes back as a precise date.
// A bound with nothing left inside the photographic era ('after Dec. 31, 2026', 'after 2026')
// reads as no date at all (null), not as the date it names. (A year with room left is read by the
// open-ended year rule.)
import type { EndPrecisions, FoundDate } from './types';
import { addDays, monthEnd, monthOf, monthStart, yearEnd, yearOf, yearStart } from './daynum';
import { FIRST_PHOTOGRAPH_YEAR } from './photo-era';
import { toEdtf } from './format';
import { rangeEdtf } from './reading-edtf';
import { CONFIDENCE } from './extraction-kit';

const BOUND_WORDS = /\b(not\s+before|no\s+earlier\s+than|not\s+after|no\s+later\s+than|before|prior\s+to|after)\s+$/i;

type Side = 'from' | 'until';
type Unit = 'day' | 'month' | 'year';
const MEANING: Record<string, { side: Side; exclusive: boolean }> = {
  'not before': { side: 'from', exclusive: false },
  'no earlier than': { side: 'from', exclusive: false },
  after: { side: 'from', exclusive: true },
  'not after': { side: 'until', exclusive: false },
  'no later than': { side: 'until', exclusive: false },
  before: { side: 'until', exclusive: true },
  'prior to': { side: 'until', exclusive: true },
};

interface Bound {
  earliest: number;
  latest: number;
  ends: EndPrecisions;
  edtf: string;
}

export function attachBoundWords<T extends FoundDate>(text: string, found: T, referenceYear: number): T | null {
  const unit = found.precision;
  if ((unit !== 'day' && unit !== 'month' && unit !== 'year') || found.set) return found;
  if (found.ends && (found.ends.earliest === null || found.ends.latest === null)) return found;
  const match = BOUND_WORDS.exec(text.slice(0, found.index));
  if (!match) return found;
  const meaning = MEANING[match[1].toLowerCase().replace(/\s+/g, ' ')];
  const era: [number, number] = [yearStart(FIRST_PHOTOGRAPH_YEAR), yearEnd(referenceYear)];
  const bound = boundOn(found, unit, meaning, era);
  if (!bound) return null;
  if (unit === 'year') return found;
  const other = found.otherReading;
  const otherBound = other && boundOn(other, unit, meaning, era);
  const phrase = match[0].trim();
  return {
    ...found,
    ...bound,
    text: text.slice(match.index, found.index + found.text.length),
    index: match.index,
    confidence: CONFIDENCE.openEnded,
    reason: `open-ended date '${phrase} ${found.text}' (${found.reason})`,
    ...(other
      ? {
          otherReading: otherBound ? { ...other, ...otherBound, reading: other.reading.replace(/: /, `: ${phrase} `) } : null,
        }
      : {}),
  };
}

/**
 * The open-ended interval a bound word makes of a reading `[earliest, latest]` at `unit`, or null
 * when it would end before the era starts (or start after it ends). It stands on the reading's
 * latest day or month for "until", its earliest for "from": the end that holds for every reading.
 */
function boundOn(
  reading: { earliest: number; latest: number },
  unit: Unit,
  { side, exclusive }: { side: Side; exclusive: boolean },
  [eraStart, eraEnd]: [number, number],
): Bound | null {
  const on = unitAround(side === 'until' ? reading.latest : reading.earliest, unit);
  const [first, last] = exclusive ? nextUnit(on, side, unit) : on;
  const [earliest, latest] = side === 'from' ? [first, eraEnd] : [eraStart, last];
  if (earliest > latest) return null;
  const end = toEdtf(first, last, { precision: unit });
  return side === 'from'
    ? { earliest, latest, ends: { earliest: unit, latest: null }, edtf: rangeEdtf(end, null) }
    : { earliest, latest, ends: { earliest: null, latest: unit }, edtf: rangeEdtf(null, end) };
}

/** The day itself, or the month or year it falls in. */
function unitAround(day: number, unit: Unit): [number, number] {
  if (unit === 'day') return [day, day];
  const year = yearOf(day);
  return unit === 'month' ? [monthStart(year, monthOf(day)), monthEnd(year, monthOf(day))] : [yearStart(year), yearEnd(year)];
}

/** The day, month or year just before (a bound "until") or just after (a bound "from") the one given. */
function nextUnit([first, last]: [number, number], side: Side, unit: Unit): [number, number] {
  return unitAround(side === 'until' ? addDays(first, -1) : addDays(last, 1), unit);
}
