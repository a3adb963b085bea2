// "not after Aug. 21, 1906", "before July 1906": a bound word before a date that a reader found
// to the day or month makes it an open-ended date, as "not after 1906" is for a year
// (year-expressions.ts). The open side is closed at the photographic era, marked open in `ends`
// and the EDTF ('../1906-08-21'); "before"/"after" exclude the date written, "not before",
// "not after", "no earlier/later than" include it, as for years.
import type { FoundDate } from './types';
import { addDays, monthEnd, monthOf, monthStart, yearEnd, yearOf, yearStart } from './daynum';
import { FIRST_PHOTOGRAPH_YEAR } from './photo-era';
import { toEdtf } from './format';
import { rangeEdtf } from './reading-edtf';
import { CONFIDENCE } from './extraction-kit';

const BOUND_WORDS = /\b(not\s+before|no\s+earlier\s+than|not\s+after|no\s+later\s+than|before|prior\s+to|after)\s+$/i;

type Side = 'from' | 'until';
const MEANING: Record<string, { side: Side; exclusive: boolean }> = {
  'not before': { side: 'from', exclusive: false },
  'no earlier than': { side: 'from', exclusive: false },
  after: { side: 'from', exclusive: true },
  'not after': { side: 'until', exclusive: false },
  'no later than': { side: 'until', exclusive: false },
  before: { side: 'until', exclusive: true },
  'prior to': { side: 'until', exclusive: true },
};

export function attachBoundWords<T extends FoundDate>(text: string, found: T, referenceYear: number): T {
  if ((found.precision !== 'day' && found.precision !== 'month') || found.set) return found;
  if (found.ends && (found.ends.earliest === null || found.ends.latest === null)) return found;
  const match = BOUND_WORDS.exec(text.slice(0, found.index));
  if (!match) return found;
  const { side, exclusive } = MEANING[match[1].toLowerCase().replace(/\s+/g, ' ')];
  const precision = found.precision;
  // The one day or month the bound stands on: the one written, or the one next to it.
  const [first, last] = exclusive ? adjacent(found, side, precision) : [found.earliest, found.latest];
  const eraStart = yearStart(FIRST_PHOTOGRAPH_YEAR);
  const eraEnd = yearEnd(referenceYear);
  const [earliest, latest] = side === 'from' ? [first, eraEnd] : [eraStart, last];
  if (earliest > latest) return found;
  const end = toEdtf(first, last, { precision });
  return {
    ...found,
    text: text.slice(match.index, found.index + found.text.length),
    index: match.index,
    earliest,
    latest,
    ends: side === 'from' ? { earliest: precision, latest: null } : { earliest: null, latest: precision },
    confidence: CONFIDENCE.openEnded,
    edtf: side === 'from' ? rangeEdtf(end, null) : rangeEdtf(null, end),
    reason: `open-ended date '${match[0].trim()} ${found.text}' (${found.reason})`,
  };
}

/** The day or month just before (a bound "until") or just after (a bound "from") the one found. */
function adjacent(found: FoundDate, side: Side, precision: 'day' | 'month'): [number, number] {
  if (precision === 'day') {
    const day = side === 'until' ? addDays(found.earliest, -1) : addDays(found.latest, 1);
    return [day, day];
  }
  const edge = side === 'until' ? addDays(found.earliest, -1) : addDays(found.latest, 1);
  return [monthStart(yearOf(edge), monthOf(edge)), monthEnd(yearOf(edge), monthOf(edge))];
}
