/**
 * How an image is read: not one fixed pipeline but a first reading, then — only when that reading
 * is poor AND the image shows why — one more, keeping the reading Tesseract itself is most
 * confident of (issue 31: retries cost a reading each, and ran on far more images than needed them).
 *
 * The first reading keeps the scan's pixels (tiny images are doubled), smooths grainy paper and
 * sets the paper's own grey to white (`paper` contrast, which keeps faint grey-on-grey writing).
 * A print with a caption band, mount or margin beside its picture (layout.ts, measured before any
 * OCR) is read first with the picture painted over: the caption is stretched against its own paper
 * (a light-grey pencil caption beside a dark print reads as nothing otherwise), and Tesseract does
 * not spend seconds reading texture. Only if that reading is poor is the whole print read.
 *
 * A poor reading is read again only for a cause measured on the image (on a print, its caption
 * band is what is read again: reading its picture differently buys texture, at seconds a reading):
 *  - low contrast (ink within a few dozen grey levels of the paper, measured before OCR): local
 *    contrast, stretched tile by tile;
 *  - smoothing of small text (the first reading's lines are small): read again without it.
 *
 * `bench -- dating --ablation` prices each step; inversion of light-on-dark pages, retries
 * upscaled or straightened, and a second page-segmentation mode were measured there and bought
 * no date on the caption set (Tesseract already reads white-on-black lines and a few degrees of
 * skew), so they are not done.
 */
import { initialOcrScale, type OcrSource, type OcrVariant } from './preprocess';
import type { PrintLayout } from './layout';

/** Which optional steps may be used (all by default); the benchmark turns each off to price it. */
export interface OcrSteps {
  denoise: boolean;
  paperContrast: boolean;
  localContrast: boolean;
  /** Read a print's caption band first, its picture painted over. */
  captionBand: boolean;
}
export const ALL_OCR_STEPS: OcrSteps = { denoise: true, paperContrast: true, localContrast: true, captionBand: true };

export interface Attempt {
  variant: OcrVariant;
}

/** What the strategy needs to know of a reading (the engine keeps the rest). */
export interface ReadingSummary {
  /** Tesseract's mean word confidence, 0..100 (0 when nothing was read). */
  confidence: number;
  /** Letters and digits read. */
  alnum: number;
  /** Median height of the lines read, in source pixels (0 when nothing was read). */
  lineHeight: number;
}

/** A reading this good is kept without retries. */
export const GOOD_CONFIDENCE = 80;
/** Fewer letters and digits than this is "found little". */
const LITTLE_TEXT = 6;
/** Paper whose grey levels spread this much (median absolute deviation) is grainy: smooth it. */
const NOISY_BORDER = 4;
const MAX_DENOISE = 2.5;
/** At most this many readings per image. */
export const MAX_ATTEMPTS = 3;
/** Ink within this many grey levels of the paper is low contrast: worth local contrast. */
export const LOW_CONTRAST = 60;
/** Lines lower than this (source pixels) are small text, which smoothing can blur away. */
export const SMALL_TEXT = 24;

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

/** What was measured of the image before any OCR, which decides the readings worth making. */
export interface ImageSigns {
  layout: PrintLayout;
  /** Grey levels between the paper and its darkest (or, on a dark page, lightest) ink. */
  inkContrast: number;
}

/** The first readings, in order: the caption band alone when there is one, then the whole image. */
export function firstAttempts(src: OcrSource, signs: ImageSigns, steps: OcrSteps): Attempt[] {
  const whole = firstAttempt(src, steps);
  if (!steps.captionBand || !signs.layout.captionBand) return [whole];
  return [{ variant: { ...whole.variant, contrast: 'paper', mask: signs.layout.pictures } }, whole];
}

/**
 * The retry worth trying after a poor reading `reading` made with `best`, for a cause the image
 * shows: low contrast measured before OCR, or smoothing over small lines. None otherwise.
 */
export function nextAttempts(
  best: Attempt,
  reading: ReadingSummary,
  signs: ImageSigns,
  steps: OcrSteps,
  tried: Attempt[],
): Attempt[] {
  const out: Attempt[] = [];
  const v = best.variant;
  if (steps.localContrast && v.contrast !== 'local' && signs.inkContrast < LOW_CONTRAST)
    out.push({ variant: { ...v, contrast: 'local' } });
  if (v.denoise && reading.lineHeight > 0 && reading.lineHeight < SMALL_TEXT) out.push({ variant: { ...v, denoise: 0 } });
  return out.filter((a) => !tried.some((t) => sameAttempt(t, a)));
}

function sameAttempt(a: Attempt, b: Attempt): boolean {
  return (
    Math.abs(a.variant.scale - b.variant.scale) < 1e-6 &&
    a.variant.contrast === b.variant.contrast &&
    a.variant.denoise === b.variant.denoise &&
    !!a.variant.mask === !!b.variant.mask
  );
}

/** A short account of how a reading was made, for the archivist and the logs. */
export function describeAttempt(a: Attempt): string {
  const parts: string[] = [];
  if (Math.abs(a.variant.scale - 1) > 0.01) parts.push(`scaled ${Math.round(a.variant.scale * 100) / 100}×`);
  if (a.variant.denoise) parts.push('smoothed');
  if (a.variant.contrast === 'local') parts.push('local contrast');
  if (a.variant.mask) parts.push('caption band alone');
  return parts.length ? parts.join(', ') : 'as scanned';
}

/**
 * Runs the strategy: `read` performs one attempt and summarises it. Returns the best attempt and
 * its reading, and how many readings it took. On a print with a caption band the band is read
 * (and, for a cause, read again) before the whole print is.
 */
export async function readBest<T extends ReadingSummary>(
  src: OcrSource,
  signs: ImageSigns,
  steps: OcrSteps,
  read: (attempt: Attempt, index: number) => Promise<T>,
): Promise<{ attempt: Attempt; reading: T; attempts: number }> {
  const tried: Attempt[] = [];
  let best: { attempt: Attempt; reading: T } | null = null;
  const tryOne = async (attempt: Attempt): Promise<{ attempt: Attempt; reading: T }> => {
    tried.push(attempt);
    const reading = await read(attempt, tried.length - 1);
    if (!best || betterReading(reading, best.reading)) best = { attempt, reading };
    return { attempt, reading };
  };
  const good = () => isGoodReading(best!.reading);
  /** Reads `from` again for each cause the image shows, while the readings stay poor. */
  const retry = async (from: { attempt: Attempt; reading: T }) => {
    let current = from;
    while (!good() && tried.length < MAX_ATTEMPTS) {
      const next = nextAttempts(current.attempt, current.reading, signs, steps, tried)[0];
      if (!next) return;
      const r = await tryOne(next);
      if (betterReading(r.reading, current.reading)) current = r;
    }
  };
  const [first, ...later] = firstAttempts(src, signs, steps);
  await retry(await tryOne(first));
  for (const attempt of later) {
    if (good() || tried.length >= MAX_ATTEMPTS) break;
    await retry(await tryOne(attempt));
  }
  const { attempt, reading } = best!;
  return { attempt, reading, attempts: tried.length };
}
