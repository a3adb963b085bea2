/** The worker's half of the `ocr` job: recognise text, then find dates in it. */
import { extractDates } from '../../shared/dating';
import type { OcrJobType } from '../../shared/jobs/types/ocr';
import { createOcrEngine, type OcrEngine } from '../ocr';
import type { RunHandler } from './types';

// One tesseract worker per process, created on first use and reused by every later OCR job.
let engine: OcrEngine | null = null;

export const ocrHandler: RunHandler<OcrJobType> = async (input, ctx) => {
  engine ??= createOcrEngine();
  const r = await engine.recognize(input.path, { signal: ctx.signal, onProgress: (f) => ctx.progress(f, 'Reading text') });
  return {
    text: r.text.slice(0, 50_000),
    confidence: r.confidence,
    lines: r.lines.slice(0, 500).map((l) => ({ text: l.text.slice(0, 2000), confidence: l.confidence })),
    dates: extractDates(r.text).slice(0, 50),
  };
};
