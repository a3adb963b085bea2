import { describe, expect, it } from 'vitest';
import { extractDates } from '../../shared/dating';
import { ocrJobOutputSchema, type OcrJobOutput } from '../../shared/jobs/outputs/ocr';
import { ocrEvidence } from './ocr-evidence';

/** What the OCR worker would return for this text, through the same schema main validates it with. */
function output(text: string): OcrJobOutput {
  return ocrJobOutputSchema.parse({
    text,
    confidence: 90,
    lines: text
      .split('\n')
      .map((line, i) => ({ text: line, confidence: 90, bbox: { x0: 0, y0: i * 20, x1: 400, y1: i * 20 + 18 } })),
    width: 400,
    height: 300,
    method: 'as scanned',
    dates: extractDates(text, { referenceYear: 2025 }),
  });
}

describe('OCR evidence', () => {
  it('a caption date is an estimate of the picture', () => {
    const [item] = ocrEvidence(output('Grandma and Joe, Xmas 1942'));
    expect(item).toMatchObject({ kind: 'estimate', earliest: 19421220, latest: 19421231 });
  });

  // Issue 14 item 3.
  it('a postmark is a "not after" bound, not a circa estimate, and says why', () => {
    const [item] = ocrEvidence(output('Postmarked PARIS 12-6-23'));
    // 12-6-23 reads as 12 June or 6 December 1923: the bound takes the later reading.
    expect(item).toMatchObject({ kind: 'bound', earliest: null, latest: 19231206, precision: 'day', confidence: null });
    expect(item.summary).toBe('Postmark “12-6-23”: the photograph is not after 1923 December 6');
    expect(item.details).toMatchObject({ use: { cue: 'postmark', word: 'Postmarked' } });
    expect((item.details as { reason: string }).reason).toMatch(/postmark dates when/);
  });

  it.each([
    ['developed 12/25/1952', 19521225],
    ['Copyright 1938 by the Chicago Tribune', 19381231],
    ['Gift of Mrs. Ida Hartley, 1972', 19721231],
  ])('%j is a bound too', (text, latest) => {
    expect(ocrEvidence(output(text))[0]).toMatchObject({ kind: 'bound', earliest: null, latest });
  });
});
