import { describe, expect, it } from 'vitest';
import type { OcrSource } from './preprocess';
import {
  ALL_OCR_STEPS,
  betterReading,
  describeAttempt,
  firstAttempt,
  firstAttempts,
  isGoodReading,
  nextAttempts,
  readBest,
  type ImageSigns,
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
const reading = (over: Partial<ReadingSummary> = {}): ReadingSummary => ({ confidence: 90, alnum: 20, lineHeight: 40, ...over });

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

  const plain: ImageSigns = { layout: { pictures: [], captionBand: false }, inkContrast: 200 };
  const faint: ImageSigns = { ...plain, inkContrast: 30 };
  const print: ImageSigns = {
    layout: { pictures: [{ x0: 60, y0: 20, x1: 1140, y1: 300 }], captionBand: true },
    inkContrast: 200,
  };

  it('retries a poor reading only for a cause the image shows: low contrast, or smoothing over small lines', () => {
    const first = firstAttempt(source({ borderNoise: 6 }), ALL_OCR_STEPS);
    const poor = reading({ confidence: 40, lineHeight: 60 });
    // Clear ink and tall lines: nothing explains the poor reading, so nothing is read again.
    expect(nextAttempts(first, poor, plain, ALL_OCR_STEPS, [first])).toEqual([]);
    expect(nextAttempts(first, poor, faint, ALL_OCR_STEPS, [first]).map((a) => a.variant)).toEqual([
      { scale: 1, contrast: 'local', denoise: 2 },
    ]);
    const small = reading({ confidence: 40, lineHeight: 14 });
    expect(nextAttempts(first, small, plain, ALL_OCR_STEPS, [first]).map((a) => a.variant)).toEqual([
      { scale: 1, contrast: 'paper', denoise: 0 },
    ]);
    const both = nextAttempts(first, small, faint, ALL_OCR_STEPS, [first]);
    expect(both).toHaveLength(2);
    expect(nextAttempts(first, small, faint, ALL_OCR_STEPS, [first, ...both])).toEqual([]);
    expect(nextAttempts(first, poor, faint, { ...ALL_OCR_STEPS, localContrast: false }, [first])).toEqual([]);
  });

  it('reads a print’s caption band alone first (the picture painted over), and the whole print only when that is poor', async () => {
    const src = source();
    expect(firstAttempts(src, plain, ALL_OCR_STEPS).map((a) => a.variant.mask)).toEqual([undefined]);
    const [band, whole] = firstAttempts(src, print, ALL_OCR_STEPS);
    expect(band.variant).toMatchObject({ contrast: 'paper', mask: print.layout.pictures });
    expect(whole.variant.mask).toBeUndefined();
    expect(firstAttempts(src, print, { ...ALL_OCR_STEPS, captionBand: false })).toHaveLength(1);

    const good = await readBest(src, print, ALL_OCR_STEPS, async () => reading());
    expect([good.attempts, good.attempt.variant.mask]).toEqual([1, print.layout.pictures]);
    // An empty band: the whole print is read, and its reading kept.
    const empty = await readBest(src, print, ALL_OCR_STEPS, async (a) =>
      a.variant.mask ? reading({ confidence: 0, alnum: 0, lineHeight: 0 }) : reading({ confidence: 70 }),
    );
    expect([empty.attempts, empty.attempt.variant.mask, empty.reading.confidence]).toEqual([2, undefined, 70]);
    // A faint band is read again with local contrast before the whole print is read.
    const order: string[] = [];
    await readBest(src, { ...print, inkContrast: 30 }, ALL_OCR_STEPS, async (a) => {
      order.push(describeAttempt(a));
      return reading({ confidence: 30 });
    });
    expect(order).toEqual(['caption band alone', 'local contrast, caption band alone', 'as scanned']);
  });

  it('stops at the first good reading, and never reads an image more than three times', async () => {
    const src = source({ borderNoise: 6 });
    const easy = await readBest(src, faint, ALL_OCR_STEPS, async () => reading());
    expect(easy.attempts).toBe(1);
    let calls = 0;
    const hard = await readBest(
      src,
      faint,
      ALL_OCR_STEPS,
      async (_a, i) => (calls++, reading({ confidence: 30 + 10 * i, lineHeight: 14 })),
    );
    expect(hard.attempts).toBe(calls);
    expect(calls).toBe(3);
    expect(hard.reading.confidence).toBe(50);
    expect(hard.attempt.variant).toEqual({ scale: 1, contrast: 'local', denoise: 0 });
    // A poor reading with no cause shown is read once.
    calls = 0;
    await readBest(src, plain, ALL_OCR_STEPS, async () => (calls++, reading({ confidence: 30 })));
    expect(calls).toBe(1);
  });
});
