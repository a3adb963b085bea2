/** The worker's half of the `ocr` job: recognise text, then find dates in it as OCR wrote it. */
import { extractDatesFromOcr } from '../../shared/dating/ocr-normalise';
import type { OcrJobType } from '../../shared/jobs/types/ocr';
import { createOcrEngine, type OcrEngine } from '../ocr';
import type { RunHandler } from './types';

// One tesseract worker per process, created on first use and reused by every later OCR job.
let engine: OcrEngine | null = null;

export const ocrHandler: RunHandler<OcrJobType> = async (input, ctx) => {
  engine ??= createOcrEngine();
  const t0 = performance.now();
  const r = await engine.recognize(input.path, {
    signal: ctx.signal,
    languages: input.languages,
    onProgress: (f) => ctx.progress(f, 'Reading text'),
  });
  return {
    text: r.text.slice(0, 50_000),
    confidence: r.confidence,
    lines: r.lines.slice(0, 500).map((l) => ({ text: l.text.slice(0, 2000), confidence: l.confidence, bbox: l.bbox })),
    width: r.width,
    height: r.height,
    method: (r.method ?? 'as scanned').slice(0, 200),
    attempts: r.attempts,
    readMs: Math.round(performance.now() - t0),
    pictureAreas: (r.pictureAreas ?? []).slice(0, 8),
    dates: extractDatesFromOcr(r.text, { dateOrder: input.numericDateOrder ?? 'undecided' })
      .slice(0, 50)
      .map((d) => ({ ...d, text: d.text.slice(0, 500), reason: d.reason.slice(0, 1000) })),
  };
};
