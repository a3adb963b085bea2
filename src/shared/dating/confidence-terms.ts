// The three numbers the photo screen shows, each defined once, here. They answer different
// questions, so each is always shown with its name:
//
//  - line confidence: how sure OCR is that it read a line's characters right;
//  - evidence confidence: how likely one finding's interval holds the photo's date;
//  - estimate confidence: how likely the estimate's interval holds the photo's date.
//
// A bound is a bound: it is hard (a scan date, "not before 1923") and has no confidence; an
// estimate set by bounds alone has none either (estimate.ts).

import { DATE_CONFIDENCE_FLOOR } from './clue-rule';

/** A line read at or above this confidence (0–100) is read clearly: its dates keep their full confidence. */
export const CLEAR_LINE_CONFIDENCE = 80;

export interface ConfidenceTerm {
  name: string;
  definition: string;
}

export const CONFIDENCE_TERMS = {
  line: {
    name: 'line confidence',
    definition:
      'How sure OCR is that it read the characters of this line right (Tesseract, 0–100 %). It says nothing about whether a date in the line is the photo’s.',
  },
  evidence: {
    name: 'evidence confidence',
    definition: `How likely this finding’s interval holds the photo’s date. For a date read by OCR: how surely the words are a date of the picture, in full when its line was read clearly (line confidence ${CLEAR_LINE_CONFIDENCE} % or more), less in proportion below that. Unreviewed findings below ${Math.round(DATE_CONFIDENCE_FLOOR * 100)} % are only clues. For visual analysis by the offline heuristic: how often clues like it held the true date on its calibration set, on old photographs and on modern ones, whichever is lower; a wide interval holds it often because it says little.`,
  },
  estimate: {
    name: 'estimate confidence',
    definition:
      'How likely the estimate’s interval holds the photo’s date, from the estimates that count (each taken as independent; copies of one finding count once). A clue never counts, and an estimate set by hard bounds alone has no confidence: a bound is a bound.',
  },
} as const satisfies Record<string, ConfidenceTerm>;

/** Below this line confidence (0–100) a line is taken for texture, not text: it gives no dates. */
export const OCR_LINE_FLOOR = 50;

/**
 * The evidence confidence of a date read by OCR: the extractor's confidence that the words are a
 * date of the picture (0..1), scaled by how clearly its own line was read (0–100).
 */
export function ocrEvidenceConfidence(dateConfidence: number, lineConfidence: number): number {
  const clarity = Math.max(0, Math.min(1, lineConfidence / CLEAR_LINE_CONFIDENCE));
  return Math.round(dateConfidence * clarity * 100) / 100;
}
