/**
 * Each number on the photo screen is named and defined once (confidence-terms.ts): the definitions
 * quote the thresholds the code uses, so they cannot drift apart, and the three names differ.
 */
import { describe, expect, it } from 'vitest';
import { CLEAR_LINE_CONFIDENCE, CONFIDENCE_TERMS, OCR_LINE_FLOOR, ocrEvidenceConfidence } from './confidence-terms';
import { DATE_CONFIDENCE_FLOOR } from './clue-rule';

describe('confidence terms', () => {
  it('three numbers, three names', () => {
    const names = Object.values(CONFIDENCE_TERMS).map((t) => t.name);
    expect(new Set(names).size).toBe(3);
    for (const name of names) expect(name).toMatch(/ confidence$/);
  });

  it('the evidence definition states the thresholds the estimator and OCR use', () => {
    const text = CONFIDENCE_TERMS.evidence.definition;
    expect(text).toContain(`${CLEAR_LINE_CONFIDENCE} % or more`);
    expect(text).toContain(`below ${Math.round(DATE_CONFIDENCE_FLOOR * 100)} % are only clues`);
    // A clear line keeps the date’s confidence; below it, in proportion.
    expect(ocrEvidenceConfidence(0.9, CLEAR_LINE_CONFIDENCE)).toBe(0.9);
    expect(ocrEvidenceConfidence(0.9, CLEAR_LINE_CONFIDENCE / 2)).toBe(0.45);
    expect(OCR_LINE_FLOOR).toBeLessThan(CLEAR_LINE_CONFIDENCE);
  });

  it('a bound is a bound: the estimate definition says bounds alone state none', () => {
    expect(CONFIDENCE_TERMS.estimate.definition).toMatch(/hard bounds alone has no confidence/);
  });
});
