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
const reading = (over: Partial<ReadingSummary> = {}): ReadingSummary => ({
  confidence: 90,
  alnum: 20,
  lineHeight: 48,
  slopeDeg: 0,
  ...over,
});

describe('OCR strategy', () => {
  it('reads a light page as scanned, inverts a dark one, smooths a grainy one', () => {
    expect(firstAttempt(source(), ALL_OCR_STEPS).variant).toMatchObject({
      scale: 1,
      invert: false,
      contrast: 'paper',
      denoise: 0,
    });
    expect(firstAttempt(source({ borderMedian: 20 }), ALL_OCR_STEPS).variant.invert).toBe(true);
    expect(firstAttempt(source({ borderNoise: 9 }), ALL_OCR_STEPS).variant.denoise).toBe(2.5);
    expect(firstAttempt(source({ borderMedian: 20 }), { ...ALL_OCR_STEPS, invert: false }).variant.invert).toBe(false);
  });

  it('keeps a confident reading of enough text, and prefers confidence, then more text', () => {
    expect(isGoodReading(reading())).toBe(true);
    expect(isGoodReading(reading({ confidence: 60 }))).toBe(false);
    expect(isGoodReading(reading({ alnum: 3 }))).toBe(false);
    expect(betterReading(reading({ confidence: 85 }), reading({ confidence: 70 }))).toBe(true);
    expect(betterReading(reading({ confidence: 70, alnum: 30 }), reading({ confidence: 71, alnum: 10 }))).toBe(true);
    expect(betterReading(reading({ alnum: 0, confidence: 0 }), reading({ confidence: 20, alnum: 2 }))).toBe(false);
  });

  it('retries a poor reading where its evidence points: upscale small lines, straighten a slope, then layout and contrast', () => {
    const src = source();
    const first = firstAttempt(src, ALL_OCR_STEPS);
    const next = nextAttempts(src, first, reading({ confidence: 50, lineHeight: 20, slopeDeg: 3 }), ALL_OCR_STEPS, [first]);
    expect(
      next.map((a) => a.variant.scale > 1 || a.variant.rotateDeg !== 0 || a.psm === 'sparse' || a.variant.contrast === 'local'),
    ).toEqual([true, true, true, true]);
    expect(next[0].variant.scale).toBeCloseTo(2.8); // 20 px lines to about 56 px
    expect(next[1].variant.rotateDeg).toBe(-3);
    expect(next[2].psm).toBe('sparse');
    expect(next[3].variant.contrast).toBe('local');
    // Nothing is tried twice, and a step that is off is never tried.
    expect(
      nextAttempts(src, first, reading({ confidence: 50 }), { ...ALL_OCR_STEPS, sparseLayout: false, localContrast: false }, [
        first,
      ]),
    ).toEqual([]);
  });

  it('stops at the first good reading, and never reads an image more than four times', async () => {
    const src = source();
    let calls = 0;
    const easy = await readBest(src, ALL_OCR_STEPS, async () => (calls++, reading()));
    expect(easy.attempts).toBe(1);
    calls = 0;
    const hard = await readBest(
      src,
      ALL_OCR_STEPS,
      async (_a, i) => (calls++, reading({ confidence: 30 + i, lineHeight: 10, slopeDeg: 2 })),
    );
    expect(hard.attempts).toBe(calls);
    expect(calls).toBeLessThanOrEqual(4);
    expect(hard.reading.confidence).toBe(30 + calls - 1);
  });
});
