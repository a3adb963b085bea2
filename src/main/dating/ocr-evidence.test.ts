import { describe, expect, it } from 'vitest';
import { DATE_CONFIDENCE_FLOOR, estimate, extractDates } from '../../shared/dating';
import { ocrJobOutputSchema, type OcrJobOutput } from '../../shared/jobs/outputs/ocr';
import { normaliseOcrText } from '../../shared/dating/ocr-normalise';
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

/** One line read at `lineConfidence`, on a page whose mean confidence is `pageConfidence`. */
function oneLine(text: string, lineConfidence: number, pageConfidence = lineConfidence): OcrJobOutput {
  return ocrJobOutputSchema.parse({
    text,
    confidence: pageConfidence,
    lines: [{ text, confidence: lineConfidence, bbox: { x0: 0, y0: 280, x1: 400, y1: 298 } }],
    width: 400,
    height: 300,
    method: 'as scanned',
    // As the worker finds them: in the normalised text.
    dates: extractDates(normaliseOcrText(text).text, { referenceYear: 2025 }),
  });
}

describe('OCR evidence: dates only from what was read (issue 28 items 3 and 4)', () => {
  it('a line read at 23 % is texture: it gives no date', () => {
    expect(oneLine('SH wo il "30', 23)).toMatchObject({ dates: [expect.objectContaining({ earliest: 19300101 })] });
    expect(ocrEvidence(oneLine('SH wo il "30', 23))).toEqual([]);
  });

  it("a caption read clearly keeps the extractor's confidence, whatever the rest of the page scored", () => {
    const [item] = ocrEvidence(oneLine('Aunt Edith, Easter 1947', 94, 35));
    expect(item).toMatchObject({ kind: 'estimate', confidence: 0.9 });
    expect(item.details).toMatchObject({ lineConfidence: 94 });
  });

  it('a date on a murky line keeps less of its confidence, and a line below the floor gives none', () => {
    const [item] = ocrEvidence(oneLine('Easter 1947', 40));
    expect(item).toBeUndefined(); // below the line floor
    const [murky] = ocrEvidence(oneLine('Easter 1947', 55));
    expect(murky.confidence).toBeLessThan(0.9 * 0.7);
  });

  it("on a camera original, a date in the picture is a clue that names its conflict with the camera's date", () => {
    const capture = { day: 20080530, field: 'DateTimeOriginal' };
    const [item] = ocrEvidence(oneLine("'33", 70), capture);
    expect(item.confidence).toBeLessThan(DATE_CONFIDENCE_FLOOR);
    expect(item.summary).toContain('contradicts the camera’s own date (2008-05-30, EXIF DateTimeOriginal) by 75 years');
    expect(item.details).toMatchObject({ captureConflict: { years: 75 } });

    const result = estimate([
      {
        id: 1,
        source: 'exif',
        kind: 'estimate',
        earliest: 20080530,
        latest: 20080530,
        confidence: 0.9,
        reviewStatus: 'pending',
        summary: 'Camera recorded 2008-05-30',
      },
      {
        id: 2,
        source: 'ocr',
        kind: item.kind,
        earliest: item.earliest,
        latest: item.latest,
        confidence: item.confidence,
        reviewStatus: 'pending',
        summary: item.summary,
      },
    ]);
    expect(result).toMatchObject({ earliest: 20080530, latest: 20080530, clueIds: [2] });
    expect(result.explanation.join(' ')).toContain('by 75 years');
  });
});

describe('OCR evidence: the picture area of a print (issue 28 item 3)', () => {
  /** A print 400×300: picture from the top to y = 240, a caption band below it. */
  const picture = { x0: 20, y0: 20, x1: 380, y1: 240 };
  const at = (text: string, y: number, pictureAreas = [picture]): OcrJobOutput =>
    ocrJobOutputSchema.parse({
      ...oneLine(text, 92),
      lines: [{ text, confidence: 92, bbox: { x0: 100, y0: y, x1: 300, y1: y + 18 } }],
      pictureAreas,
    });

  it('a date on a line inside the picture is only a clue, marked as read there', () => {
    const [inside] = ocrEvidence(at('Easter 1947', 120));
    expect(inside).toMatchObject({ kind: 'estimate', earliest: 19470330 });
    expect(inside.confidence).toBeLessThan(DATE_CONFIDENCE_FLOOR);
    expect(inside.details).toMatchObject({ clue: expect.stringContaining('inside the picture area of the print') });
    const [bound] = ocrEvidence(at('Postmarked PARIS 12-6-23', 120));
    expect(bound).toMatchObject({ kind: 'bound', confidence: expect.any(Number) });
    expect(bound.confidence!).toBeLessThan(DATE_CONFIDENCE_FLOOR);
  });

  it('the same line on the caption band below, or on a reading with no picture area, dates the photo', () => {
    for (const out of [at('Easter 1947', 260), at('Easter 1947', 120, [])]) {
      const [item] = ocrEvidence(out);
      expect(item.confidence).toBeGreaterThanOrEqual(DATE_CONFIDENCE_FLOOR);
      expect(item.details).not.toHaveProperty('clue');
    }
  });
});
