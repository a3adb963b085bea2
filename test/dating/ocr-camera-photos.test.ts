/**
 * OCR on the corpus' camera photographs produces no dated evidence (issue 28 item 3): real
 * Tesseract through the OCR engine, the worker's date finding, and main's OCR evidence with the
 * camera's own capture date. Texture read as "'33" on a 2008 GPS photo must not become 1933.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import exifr from 'exifr';
import { dayNum, estimate, isClue, type EvidenceInput } from '../../src/shared/dating';
import { extractDatesFromOcr } from '../../src/shared/dating/ocr-normalise';
import { ocrJobOutputSchema } from '../../src/shared/jobs/outputs/ocr';
import { ocrEvidence } from '../../src/main/dating/ocr-evidence';
import { createOcrEngine, type OcrEngine } from '../../src/worker/ocr';
import { cameraPhotos } from '../support/calibration-set';

let engine: OcrEngine;
beforeAll(() => {
  engine = createOcrEngine();
});
afterAll(async () => {
  await engine.terminate();
});

describe("OCR on the corpus' camera photos", () => {
  it('gives no dated evidence: whatever it reads is at most a clue, and the camera date stands', async () => {
    const photos = await cameraPhotos();
    expect(photos.length).toBeGreaterThanOrEqual(30);
    const read: string[] = [];
    for (const { file } of photos) {
      const original = (await exifr.parse(file, ['DateTimeOriginal'])) as { DateTimeOriginal: Date };
      const d = original.DateTimeOriginal;
      const day = dayNum(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
      const r = await engine.recognize(file);
      const out = ocrJobOutputSchema.parse({
        ...{
          text: r.text.slice(0, 50_000),
          confidence: r.confidence,
          width: r.width,
          height: r.height,
          method: r.method ?? 'as scanned',
        },
        lines: r.lines.slice(0, 500).map((l) => ({ text: l.text.slice(0, 2000), confidence: l.confidence, bbox: l.bbox })),
        dates: extractDatesFromOcr(r.text).slice(0, 50),
      });
      const items = ocrEvidence(out, { day, field: 'DateTimeOriginal' });
      const evidence: EvidenceInput[] = [
        {
          id: 1,
          source: 'exif',
          kind: 'estimate',
          earliest: day,
          latest: day,
          confidence: 0.9,
          reviewStatus: 'pending',
          summary: 'camera',
        },
        ...items.map((e, i) => ({
          id: i + 2,
          source: 'ocr' as const,
          reviewStatus: 'pending' as const,
          ...e,
          precision: undefined,
        })),
      ];
      for (const e of evidence.slice(1)) expect(isClue(e), `${file}: ${e.summary}`).toBe(true);
      expect(estimate(evidence), file).toMatchObject({ earliest: day, latest: day });
      if (out.dates.length) read.push(`${file}: ${out.dates.map((x) => x.text).join(', ')}`);
    }
    // What Tesseract took for dates in the pictures, for whoever reads the log.
    if (read.length) console.log(`dates read in camera photos (all clues):\n${read.join('\n')}`);
  }, 900_000);
});
