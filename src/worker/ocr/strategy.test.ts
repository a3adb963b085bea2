import { describe, expect, it } from 'vitest';
import type { OcrSource } from './preprocess';
import {
  ALL_OCR_STEPS,
  betterReading,
  firstAttempt,
  isGoodReading,
  nextAttempts,
  readBest,
  type ReadingSummary,
} from './strategy';

const source = (over: Partial<OcrSource> = {}): OcrSource => ({
  width: 1200,
  height: 400,
  grey: Buffer.alloc(0),
  decodedWidth: 1200,
  decodedHeight: 400,
  borderMedian: 230,
  borderNoise: 1,
  ...over,
});
const reading = (over: Partial<ReadingSummary> = {}): ReadingSummary => ({ confidence: 90, alnum: 20, ...over });

describe('OCR strategy', () => {
  it('reads a clean scan as scanned against its paper, and smooths a grainy one', () => {
    expect(firstAttempt(source(), ALL_OCR_STEPS).variant).toEqual({ scale: 1, contrast: 'paper', denoise: 0 });
    expect(firstAttempt(source({ borderNoise: 6 }), ALL_OCR_STEPS).variant.denoise).toBe(2);
    expect(firstAttempt(source({ borderNoise: 20 }), ALL_OCR_STEPS).variant.denoise).toBe(2.5);
    expect(firstAttempt(source({ borderNoise: 6 }), { ...ALL_OCR_STEPS, denoise: false, paperContrast: false }).variant).toEqual({
      scale: 1,
      contrast: 'global',
      denoise: 0,
    });
    expect(firstAttempt(source({ width: 250, height: 120 }), ALL_OCR_STEPS).variant.scale).toBe(2);
  });

  it('keeps a confident reading of enough text, and prefers confidence, then more text', () => {
    expect(isGoodReading(reading())).toBe(true);
    expect(isGoodReading(reading({ confidence: 60 }))).toBe(false);
    expect(isGoodReading(reading({ alnum: 3 }))).toBe(false);
    expect(betterReading(reading({ confidence: 85 }), reading({ confidence: 70 }))).toBe(true);
    expect(betterReading(reading({ confidence: 70, alnum: 30 }), reading({ confidence: 71, alnum: 10 }))).toBe(true);
    expect(betterReading(reading({ alnum: 0, confidence: 0 }), reading({ confidence: 20, alnum: 2 }))).toBe(false);
  });

  it('retries a poor reading with local contrast, then without smoothing; never twice, never a step that is off', () => {
    const first = firstAttempt(source({ borderNoise: 6 }), ALL_OCR_STEPS);
    const next = nextAttempts(first, ALL_OCR_STEPS, [first]);
    expect(next.map((a) => a.variant)).toEqual([
      { scale: 1, contrast: 'local', denoise: 2 },
      { scale: 1, contrast: 'paper', denoise: 0 },
    ]);
    expect(nextAttempts(first, ALL_OCR_STEPS, [first, ...next])).toEqual([]);
    expect(nextAttempts(first, { ...ALL_OCR_STEPS, localContrast: false }, [first]).map((a) => a.variant.contrast)).toEqual([
      'paper',
    ]);
  });

  it('stops at the first good reading, and never reads an image more than four times', async () => {
    const src = source({ borderNoise: 6 });
    const easy = await readBest(src, ALL_OCR_STEPS, async () => reading());
    expect(easy.attempts).toBe(1);
    let calls = 0;
    const hard = await readBest(src, ALL_OCR_STEPS, async (_a, i) => (calls++, reading({ confidence: 30 + 10 * i })));
    expect(hard.attempts).toBe(calls);
    expect(calls).toBeLessThanOrEqual(4);
    expect(hard.reading.confidence).toBe(50);
    expect(hard.attempt.variant).toEqual({ scale: 1, contrast: 'local', denoise: 0 });
  });
});
