/**
 * How an image is read: not one fixed pipeline but a first reading, then — only when that reading
 * is poor — a retry or two, keeping the reading Tesseract itself is most confident of.
 *
 * The first reading keeps the scan's pixels (tiny images are doubled), smooths grainy paper and
 * sets the paper's own grey to white (`paper` contrast, which keeps faint grey-on-grey writing).
 * If that reading is poor it is read again with local contrast (a grey label beside a dark print,
 * where one stretch for the whole image changes nothing), and without the smoothing (which can
 * blur away small strokes). Easy captions cost one reading.
 *
 * `bench -- dating --ablation` prices each step; inversion of light-on-dark pages, retries
 * upscaled or straightened, and a second page-segmentation mode were measured there and bought
 * no date on the caption set (Tesseract already reads white-on-black lines and a few degrees of
 * skew), so they are not done.
 */
import { initialOcrScale, type OcrSource, type OcrVariant } from './preprocess';

/** Which optional steps may be used (all by default); the benchmark turns each off to price it. */
export interface OcrSteps {
  denoise: boolean;
  paperContrast: boolean;
  localContrast: boolean;
}
export const ALL_OCR_STEPS: OcrSteps = { denoise: true, paperContrast: true, localContrast: true };

export interface Attempt {
  variant: OcrVariant;
}

/** What the strategy needs to know of a reading (the engine keeps the rest). */
export interface ReadingSummary {
  /** Tesseract's mean word confidence, 0..100 (0 when nothing was read). */
  confidence: number;
  /** Letters and digits read. */
  alnum: number;
}

/** A reading this good is kept without retries. */
export const GOOD_CONFIDENCE = 80;
/** Fewer letters and digits than this is "found little". */
const LITTLE_TEXT = 6;
/** Paper whose grey levels spread this much (median absolute deviation) is grainy: smooth it. */
const NOISY_BORDER = 4;
const MAX_DENOISE = 2.5;
/** At most this many readings per image. */
export const MAX_ATTEMPTS = 4;

export function firstAttempt(src: OcrSource, steps: OcrSteps): Attempt {
  return {
    variant: {
      scale: initialOcrScale(src.width, src.height),
      contrast: steps.paperContrast ? 'paper' : 'global',
      denoise: steps.denoise && src.borderNoise >= NOISY_BORDER ? Math.min(MAX_DENOISE, src.borderNoise / 3) : 0,
    },
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

/** The retries worth trying after a poor reading with `best`, in order: each changes one thing. */
export function nextAttempts(best: Attempt, steps: OcrSteps, tried: Attempt[]): Attempt[] {
  const out: Attempt[] = [];
  const v = best.variant;
  if (steps.localContrast && v.contrast !== 'local') out.push({ variant: { ...v, contrast: 'local' } });
  // Smoothing that blurred away small strokes: read again without it.
  if (v.denoise) out.push({ variant: { ...v, denoise: 0 } });
  return out.filter((a) => !tried.some((t) => sameAttempt(t, a)));
}

function sameAttempt(a: Attempt, b: Attempt): boolean {
  return (
    Math.abs(a.variant.scale - b.variant.scale) < 1e-6 &&
    a.variant.contrast === b.variant.contrast &&
    a.variant.denoise === b.variant.denoise
  );
}

/** A short account of how a reading was made, for the archivist and the logs. */
export function describeAttempt(a: Attempt): string {
  const parts: string[] = [];
  if (Math.abs(a.variant.scale - 1) > 0.01) parts.push(`scaled ${Math.round(a.variant.scale * 100) / 100}×`);
  if (a.variant.denoise) parts.push('smoothed');
  if (a.variant.contrast === 'local') parts.push('local contrast');
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
    const next = nextAttempts(attempt, steps, tried);
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
        // Start again from the improved reading: it may call for the other retry.
        break;
      }
    }
    if (!improved) break;
  }
  return { attempt, reading, attempts: tried.length };
}
