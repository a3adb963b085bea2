// When evidence dates a photo and when it is only a clue. One rule, here, for the estimator,
// the grid, sorting, the year filters and the exports (they read what the estimator stored).
//
// A clue is a finding nobody has accepted that is too weak to stand as a date:
//  - any visual analysis (machine dating is off by ~7 years on average; the offline heuristic
//    reads only tone, colour and shape), and
//  - any finding stated below DATE_CONFIDENCE_FLOOR (a weak "file last saved" bound, a date
//    read from a poorly read OCR line).
// Clues are listed and explained but never make a photo look dated: a photo with only clues is
// undated. Accepting a clue makes it a finding like any other. Hard bounds with no confidence,
// confident readings and everything the archivist accepted date the photo as before.
import type { EvidenceInput } from './types';
import { formatPercent } from '../format-percent';

/** Unreviewed evidence stated below this confidence is a clue, not a date. */
export const DATE_CONFIDENCE_FLOOR = 0.5;

/** The rule in the words the archivist reads in the explanation. */
export const CLUE_RULE =
  `A clue is not a date: visual analysis that you have not accepted, and any unreviewed finding stated below ` +
  `${formatPercent(DATE_CONFIDENCE_FLOOR)} confidence, never dates the photo. Accept a clue to count it.`;

/** Why an item is only a clue, or null when it counts as a date. */
export function clueReason(item: Pick<EvidenceInput, 'source' | 'originSource' | 'confidence' | 'reviewStatus'>): string | null {
  if (item.reviewStatus !== 'pending') return null;
  const source = item.originSource ?? item.source;
  if (source === 'ai') return 'visual analysis not yet accepted';
  if (item.confidence !== null && item.confidence < DATE_CONFIDENCE_FLOOR) {
    return `unreviewed and stated at ${formatPercent(item.confidence)}, below ${formatPercent(DATE_CONFIDENCE_FLOOR)}`;
  }
  return null;
}

export const isClue = (item: Parameters<typeof clueReason>[0]): boolean => clueReason(item) !== null;
