/**
 * How an image is read: not one fixed pipeline but a first reading, then — only when that reading
 * is poor — a few targeted retries, keeping the reading Tesseract itself is most confident of.
 *
 * The first reading keeps the scan's pixels, inverts a page whose border is dark (white ink on a
 * black album page), stretches contrast globally and lets Tesseract find the layout. What it
 * returns says what to try next:
 *  - its lines are small → read again upscaled (small print at a low scan resolution);
 *  - its lines slope → read again straightened (a label glued on askew);
 *  - it found little or is unsure → read again as sparse text (a photograph beside a caption
 *    defeats automatic layout analysis), and with local contrast (grey ink on a grey mount next
 *    to a dark print, where a global stretch changes nothing);
 *  - the page colour was ambiguous → read again with the other polarity.
 * Each retry starts from the best reading so far, so improvements add up. Easy captions cost one
 * reading, which keeps throughput where it was.
 */
import { initialOcrScale, maxOcrScale, type OcrSource, type OcrVariant } from './preprocess';

/** Which optional steps may be used (all by default); the benchmark turns each off to price it. */
export interface OcrSteps {
  invert: boolean;
  denoise: boolean;
  paperContrast: boolean;
  upscale: boolean;
  deskew: boolean;
  sparseLayout: boolean;
  localContrast: boolean;
}
export const ALL_OCR_STEPS: OcrSteps = {
  invert: true,
  denoise: true,
  paperContrast: true,
  upscale: true,
  deskew: true,
  sparseLayout: true,
  localContrast: true,
};

export type PageSegmentation = 'auto' | 'sparse';

export interface Attempt {
  variant: OcrVariant;
  psm: PageSegmentation;
}

/** What the strategy needs to know of a reading (the engine keeps the rest). */
export interface ReadingSummary {
  /** Tesseract's mean word confidence, 0..100 (0 when nothing was read). */
  confidence: number;
  /** Letters and digits read. */
  alnum: number;
  /** Median height of the lines read, in pixels of the image Tesseract was given. */
  lineHeight: number | null;
  /** Median slope of the lines' baselines, degrees (positive: falling to the right). */
  slopeDeg: number | null;
}

/** A reading this good is kept without retries. */
export const GOOD_CONFIDENCE = 80;
/** Fewer letters and digits than this is "found little". */
const LITTLE_TEXT = 6;
/** Lines lower than this (pixels) are small for the LSTM model; upscale towards TARGET_LINE_HEIGHT. */
const SMALL_LINE = 30;
const TARGET_LINE_HEIGHT = 56;
/** Straighten text sloping more than this. */
const SKEW_DEG = 0.8;
/** Border medians between these could be either paper or a dark page: try both polarities. */
const AMBIGUOUS_BORDER: [number, number] = [70, 150];
/** Paper whose grey levels spread this much (median absolute deviation) is grainy: smooth it. */
const NOISY_BORDER = 4;
const MAX_DENOISE = 2.5;
/** At most this many readings per image. */
export const MAX_ATTEMPTS = 4;

export function firstAttempt(src: OcrSource, steps: OcrSteps): Attempt {
  return {
    variant: {
      scale: initialOcrScale(src.width, src.height),
      invert: steps.invert && src.borderMedian < 100,
      contrast: steps.paperContrast ? 'paper' : 'global',
      rotateDeg: 0,
      denoise: steps.denoise && src.borderNoise >= NOISY_BORDER ? Math.min(MAX_DENOISE, src.borderNoise / 3) : 0,
    },
    psm: 'auto',
  };
}

export function isGoodReading(r: ReadingSummary): boolean {
  return r.confidence >= GOOD_CONFIDENCE && r.alnum >= LITTLE_TEXT;
}

/**
 * Orders readings: more confident first; a reading of nothing is worst; between two readings of
 * about equal confidence (within 2 points) the one that read more text wins.
 */
export function betterReading(a: ReadingSummary, b: ReadingSummary): boolean {
  if (a.alnum === 0 || b.alnum === 0) return a.alnum > b.alnum;
  if (Math.abs(a.confidence - b.confidence) <= 2) return a.alnum > b.alnum;
  return a.confidence > b.confidence;
}

/**
 * The retries worth trying after `best` (read with `attempt`), in the order they are tried.
 * Each is the best attempt so far with one thing changed.
 */
export function nextAttempts(src: OcrSource, best: Attempt, r: ReadingSummary, steps: OcrSteps, tried: Attempt[]): Attempt[] {
  const out: Attempt[] = [];
  const v = best.variant;
  const little = r.alnum < LITTLE_TEXT;
  if (steps.upscale && (r.lineHeight !== null ? r.lineHeight < SMALL_LINE : little)) {
    const factor = r.lineHeight !== null ? TARGET_LINE_HEIGHT / Math.max(8, r.lineHeight) : 2;
    const scale = Math.min(maxOcrScale(src.width, src.height), v.scale * Math.min(4, factor));
    if (scale > v.scale * 1.25) out.push({ ...best, variant: { ...v, scale } });
  }
  if (steps.deskew && r.slopeDeg !== null && Math.abs(r.slopeDeg) > SKEW_DEG && v.rotateDeg === 0) {
    out.push({ ...best, variant: { ...v, rotateDeg: -r.slopeDeg } });
  }
  if (steps.sparseLayout && best.psm === 'auto') out.push({ ...best, psm: 'sparse' });
  if (steps.localContrast && v.contrast !== 'local') out.push({ ...best, variant: { ...v, contrast: 'local' } });
  // Smoothing that blurred away small strokes: read again without it.
  if (v.denoise) out.push({ ...best, variant: { ...v, denoise: 0 } });
  if (steps.invert && src.borderMedian >= AMBIGUOUS_BORDER[0] && src.borderMedian <= AMBIGUOUS_BORDER[1]) {
    out.push({ ...best, variant: { ...v, invert: !v.invert } });
  }
  return out.filter((a) => !tried.some((t) => sameAttempt(t, a)));
}

function sameAttempt(a: Attempt, b: Attempt): boolean {
  return (
    a.psm === b.psm &&
    Math.abs(a.variant.scale - b.variant.scale) < 1e-6 &&
    a.variant.invert === b.variant.invert &&
    a.variant.contrast === b.variant.contrast &&
    a.variant.denoise === b.variant.denoise &&
    Math.abs(a.variant.rotateDeg - b.variant.rotateDeg) < 0.05
  );
}

/** A short account of how a reading was made, for the archivist and the logs. */
export function describeAttempt(a: Attempt): string {
  const parts: string[] = [];
  if (Math.abs(a.variant.scale - 1) > 0.01) parts.push(`scaled ${Math.round(a.variant.scale * 100) / 100}×`);
  if (a.variant.invert) parts.push('inverted');
  if (a.variant.contrast === 'local') parts.push('local contrast');
  if (a.variant.denoise) parts.push('smoothed');
  if (a.variant.rotateDeg) parts.push(`straightened ${Math.round(a.variant.rotateDeg * 10) / 10}°`);
  if (a.psm === 'sparse') parts.push('sparse text');
  return parts.length ? parts.join(', ') : 'as scanned';
}

/**
 * Runs the strategy: `read` performs one attempt and summarises it. Returns the best attempt and
 * its reading, and how many readings it took.
 */
export async function readBest<T extends ReadingSummary>(
  src: OcrSource,
  steps: OcrSteps,
  read: (attempt: Attempt, index: number) => Promise<T>,
): Promise<{ attempt: Attempt; reading: T; attempts: number }> {
  let attempt = firstAttempt(src, steps);
  let reading = await read(attempt, 0);
  const tried = [attempt];
  while (!isGoodReading(reading) && tried.length < MAX_ATTEMPTS) {
    const next = nextAttempts(src, attempt, reading, steps, tried);
    if (!next.length) break;
    let improved = false;
    for (const candidate of next) {
      if (tried.length >= MAX_ATTEMPTS) break;
      tried.push(candidate);
      const r = await read(candidate, tried.length - 1);
      if (betterReading(r, reading)) {
        attempt = candidate;
        reading = r;
        improved = true;
        // Start again from the improved reading: what it says may call for other retries.
        break;
      }
    }
    if (!improved || isGoodReading(reading)) break;
  }
  return { attempt, reading, attempts: tried.length };
}
