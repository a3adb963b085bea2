/**
 * The archivist's own constraints as evidence. They are the archivist's decisions, so they start
 * accepted. A bound keeps the precision it was given: "not before June 1923" is month-precise,
 * "between 3 and 10 May 1945" day-precise, a bare year year-precise.
 */
import type { ManualConstraint } from '../../shared/contract';
import {
  describeEnd,
  describeStart,
  encodePrecision,
  partialEnd,
  partialPrecision,
  partialStart,
  yearEnd,
  yearStart,
  type PartialDate,
} from '../../shared/dating';
import type { NewEvidence } from './evidence-store';

/** "circa 1937 ± 2" is the archivist's judgement, not a hard fact: a confident estimate, not a bound. */
export const CIRCA_CONFIDENCE = 0.8;

const asPartial = (d: number | PartialDate): PartialDate => (typeof d === 'number' ? { year: d } : d);

export function manualEvidence(c: ManualConstraint, note: string): NewEvidence {
  const why = note.trim() ? ` — ${note.trim()}` : '';
  const details = { constraint: c, note };
  switch (c.type) {
    case 'not_before': {
      const precision = partialPrecision(c);
      const earliest = partialStart(c);
      return {
        kind: 'bound',
        earliest,
        latest: null,
        precision,
        confidence: null,
        summary: `Not before ${describeStart(earliest, precision)}${why}`,
        details,
      };
    }
    case 'not_after': {
      const precision = partialPrecision(c);
      const latest = partialEnd(c);
      return {
        kind: 'bound',
        earliest: null,
        latest,
        precision,
        confidence: null,
        summary: `Not after ${describeEnd(latest, precision)}${why}`,
        details,
      };
    }
    case 'between': {
      const from = asPartial(c.from);
      const to = asPartial(c.to);
      const precision = { earliest: partialPrecision(from), latest: partialPrecision(to) };
      const earliest = partialStart(from);
      const latest = partialEnd(to);
      return {
        kind: 'bound',
        earliest,
        latest,
        precision: encodePrecision(precision),
        confidence: null,
        summary: `Between ${describeStart(earliest, precision.earliest)} and ${describeEnd(latest, precision.latest)}${why}`,
        details,
      };
    }
    case 'circa':
      return {
        kind: 'estimate',
        earliest: yearStart(c.year - c.plusMinus),
        latest: yearEnd(c.year + c.plusMinus),
        precision: 'year',
        confidence: CIRCA_CONFIDENCE,
        summary: `Circa ${c.year}${c.plusMinus ? ` ± ${c.plusMinus}` : ''}${why}`,
        details,
      };
  }
}
