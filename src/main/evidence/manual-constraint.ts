/** The archivist's own constraints as evidence. They are the archivist's decisions, so they start accepted. */
import type { ManualConstraint } from '../../shared/contract';
import { yearEnd, yearStart } from '../../shared/dating';
import type { NewEvidence } from './evidence-store';

/** "circa 1937 ± 2" is the archivist's judgement, not a hard fact: a confident estimate, not a bound. */
export const CIRCA_CONFIDENCE = 0.8;

export function manualEvidence(c: ManualConstraint, note: string): NewEvidence {
  const why = note.trim() ? ` — ${note.trim()}` : '';
  switch (c.type) {
    case 'not_before':
      return {
        kind: 'bound',
        earliest: yearStart(c.year),
        latest: null,
        precision: 'year',
        confidence: null,
        summary: `Not before ${c.year}${why}`,
        details: { constraint: c, note },
      };
    case 'not_after':
      return {
        kind: 'bound',
        earliest: null,
        latest: yearEnd(c.year),
        precision: 'year',
        confidence: null,
        summary: `Not after ${c.year}${why}`,
        details: { constraint: c, note },
      };
    case 'between':
      return {
        kind: 'bound',
        earliest: yearStart(c.from),
        latest: yearEnd(c.to),
        precision: 'year',
        confidence: null,
        summary: `Between ${c.from} and ${c.to}${why}`,
        details: { constraint: c, note },
      };
    case 'circa':
      return {
        kind: 'estimate',
        earliest: yearStart(c.year - c.plusMinus),
        latest: yearEnd(c.year + c.plusMinus),
        precision: 'year',
        confidence: CIRCA_CONFIDENCE,
        summary: `Circa ${c.year}${c.plusMinus ? ` ± ${c.plusMinus}` : ''}${why}`,
        details: { constraint: c, note },
      };
  }
}
