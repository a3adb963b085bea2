/**
 * The offline, always-available "backend": image statistics only (tone, colour cast, contrast,
 * borders, shape). Every finding is a WIDE, low-confidence clue; photographic processes and
 * print formats overlapped for decades, and a scan, copy print or edit can change any of these
 * signals. This is a weak prior for the estimate, never a date.
 */
import { formatPercent } from '../../shared/format-percent';
import { sampleRgb, type RawSample } from './image';
import { HEURISTIC_CONFIDENCE_CAP, MIN_PHOTO_YEAR, currentYear, type AiAnalysis, type AiClue } from '../../shared/ai/schema';
import { statedConfidence, type ClueFamily } from './heuristic-calibration';
import { weakClueTag } from '../../shared/dating/clue-words';

export interface ImageStats {
  meanR: number;
  meanG: number;
  meanB: number;
  /** Mean of per-pixel (max channel − min channel), 0..255. */
  meanSpread: number;
  p90Spread: number;
  /** Mean HSV saturation, 0..1. */
  meanSat: number;
  /** Luminance percentiles and standard deviation, 0..255. */
  lumP2: number;
  lumP98: number;
  lumStd: number;
  /** Chroma-weighted circular mean hue (degrees) and its concentration (0 = all hues, 1 = one hue). */
  hue: number;
  hueConcentration: number;
  /** Light, uniform margin on each side as a fraction of that dimension. */
  border: { top: number; bottom: number; left: number; right: number };
  /** Long side / short side of the full oriented image. */
  aspect: number;
  /** Share of horizontally adjacent pixels of exactly the same colour: flat fills of drawings and graphics. */
  flatShare: number;
  /** Distinct colours at 4 bits a channel: a photograph's grain and light give hundreds. */
  distinctColours: number;
  width: number;
  height: number;
}

function percentile(sorted: Float64Array | number[], p: number): number {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.round((p / 100) * (sorted.length - 1))));
  return sorted[i];
}

function hueOf(r: number, g: number, b: number): number {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const c = max - min;
  if (c === 0) return 0;
  let h: number;
  if (max === r) h = ((g - b) / c) % 6;
  else if (max === g) h = (b - r) / c + 2;
  else h = (r - g) / c + 4;
  return (h * 60 + 360) % 360;
}

/** Counts how many rows/columns in from an edge are light and uniform (a print border). */
function borderDepth(s: RawSample, side: 'top' | 'bottom' | 'left' | 'right'): number {
  const { data, width, height } = s;
  const horizontal = side === 'top' || side === 'bottom';
  const lines = horizontal ? height : width;
  const len = horizontal ? width : height;
  let depth = 0;
  for (let k = 0; k < Math.floor(lines * 0.3); k++) {
    const line = side === 'top' || side === 'left' ? k : lines - 1 - k;
    let sum = 0;
    let sumSq = 0;
    for (let j = 0; j < len; j++) {
      const x = horizontal ? j : line;
      const y = horizontal ? line : j;
      const o = (y * width + x) * 3;
      const lum = 0.299 * data[o] + 0.587 * data[o + 1] + 0.114 * data[o + 2];
      sum += lum;
      sumSq += lum * lum;
    }
    const mean = sum / len;
    const std = Math.sqrt(Math.max(0, sumSq / len - mean * mean));
    if (mean >= 200 && std <= 12) depth++;
    else break;
  }
  return depth / lines;
}

export function computeImageStats(s: RawSample): ImageStats {
  const { data, width, height } = s;
  const n = width * height;
  const lums = new Float64Array(n);
  const spreads = new Float64Array(n);
  let sr = 0,
    sg = 0,
    sb = 0,
    sSpread = 0,
    sSat = 0,
    sLum = 0,
    sLumSq = 0,
    hx = 0,
    hy = 0,
    hw = 0;
  for (let i = 0; i < n; i++) {
    const r = data[i * 3],
      g = data[i * 3 + 1],
      b = data[i * 3 + 2];
    const max = Math.max(r, g, b),
      min = Math.min(r, g, b);
    const spread = max - min;
    const lum = 0.299 * r + 0.587 * g + 0.114 * b;
    sr += r;
    sg += g;
    sb += b;
    sSpread += spread;
    sSat += max === 0 ? 0 : spread / max;
    sLum += lum;
    sLumSq += lum * lum;
    lums[i] = lum;
    spreads[i] = spread;
    if (spread >= 6) {
      const h = (hueOf(r, g, b) * Math.PI) / 180;
      hx += spread * Math.cos(h);
      hy += spread * Math.sin(h);
      hw += spread;
    }
  }
  let flat = 0;
  const colours = new Set<number>();
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 3;
      colours.add(((data[o] >> 4) << 8) | ((data[o + 1] >> 4) << 4) | (data[o + 2] >> 4));
      if (x > 0 && data[o] === data[o - 3] && data[o + 1] === data[o - 2] && data[o + 2] === data[o - 1]) flat++;
    }
  }
  lums.sort();
  spreads.sort();
  const meanLum = sLum / n;
  const border = {
    top: borderDepth(s, 'top'),
    bottom: borderDepth(s, 'bottom'),
    left: borderDepth(s, 'left'),
    right: borderDepth(s, 'right'),
  };
  const long = Math.max(s.fullWidth, s.fullHeight);
  const short = Math.min(s.fullWidth, s.fullHeight);
  return {
    meanR: sr / n,
    meanG: sg / n,
    meanB: sb / n,
    meanSpread: sSpread / n,
    p90Spread: percentile(spreads, 90),
    meanSat: sSat / n,
    lumP2: percentile(lums, 2),
    lumP98: percentile(lums, 98),
    lumStd: Math.sqrt(Math.max(0, sLumSq / n - meanLum * meanLum)),
    hue: hw > 0 ? ((Math.atan2(hy, hx) * 180) / Math.PI + 360) % 360 : 0,
    hueConcentration: hw > 0 ? Math.hypot(hx, hy) / hw : 0,
    border,
    aspect: long / short,
    flatShare: width > 1 ? flat / ((width - 1) * height) : 1,
    distinctColours: colours.size,
    width: s.fullWidth,
    height: s.fullHeight,
  };
}

interface Format {
  family: ClueFamily;
  ratio: number;
  tolerance: number;
  name: string;
  earliest: number;
  latest: number | 'now';
}

/** Historical print/negative shapes (long side / short side). Scans are often cropped, so these are weak. */
export const HISTORICAL_FORMATS: readonly Format[] = [
  {
    family: 'format-square',
    ratio: 1,
    tolerance: 0.03,
    name: 'square, like 126 Instamatic (3.5×3.5 in prints), 6×6 roll film or SX-70 instant prints',
    earliest: 1950,
    latest: 1990,
  },
  {
    family: 'format-carte-de-visite',
    ratio: 1.62,
    tolerance: 0.04,
    name: 'carte de visite (≈2.5×4 in mount)',
    earliest: 1859,
    latest: 1890,
  },
  {
    family: 'format-cabinet-card',
    ratio: 6.5 / 4.25,
    tolerance: 0.012,
    name: 'cabinet card (≈4.25×6.5 in mount)',
    earliest: 1866,
    latest: 1910,
  },
  {
    family: 'format-3:2',
    ratio: 1.5,
    tolerance: 0.012,
    name: '3:2, like 35 mm film or most digital SLRs',
    earliest: 1925,
    latest: 'now',
  },
  {
    family: 'format-4:3',
    ratio: 4 / 3,
    tolerance: 0.02,
    name: '4:3, like 6×4.5 roll film or compact digital cameras',
    earliest: 1930,
    latest: 'now',
  },
  { family: 'format-5x7', ratio: 1.4, tolerance: 0.02, name: '5×7 in / 3.5×5 in prints', earliest: 1900, latest: 'now' },
  {
    family: 'format-4x5',
    ratio: 1.25,
    tolerance: 0.015,
    name: '4×5 in / 8×10 in sheet film or prints',
    earliest: 1880,
    latest: 'now',
  },
];

/**
 * A drawing, diagram, flat graphic or screenshot, not a photograph: most neighbouring pixels are
 * exactly alike (flat fills). On the calibration set, graphics score 0.91–1.00 and photographs
 * (camera, greyscale and sepia copies) at most 0.33. Such images get no clue: tone and shape say
 * nothing about when a graphic was made.
 */
export const GRAPHIC_FLAT_SHARE = 0.6;
export const looksLikeGraphic = (st: Pick<ImageStats, 'flatShare'>): boolean => st.flatShare >= GRAPHIC_FLAT_SHARE;
const isBlank = (st: ImageStats): boolean => st.lumStd < 4 && st.p90Spread < 8;

/** Hue concentration of an image in one hue only (a toned print), whatever its saturation. */
const ONE_HUE = 0.995;

/** Clues below this confidence are reported but do not move the overall estimate. */
const INFORMATIVE = 0.1;
const MIN_OVERALL_SPAN = 20;

export function cluesFromStats(st: ImageStats, now = currentYear()): AiClue[] {
  return familyClues(st, now).map(({ clue }) => clue);
}

/**
 * Each clue the heuristic gives, with the family it is calibrated as (heuristic-calibration.ts).
 * A family whose measured hit rate earns no confidence (never measured, or missing the truth too
 * often) gives no clue: the heuristic states nothing it has not earned.
 */
export function familyClues(st: ImageStats, now = currentYear()): { family: ClueFamily; clue: AiClue }[] {
  return candidateClues(st, now)
    .map(({ family, clue }) => ({
      family,
      clue: { ...clue, confidence: Math.min(HEURISTIC_CONFIDENCE_CAP, statedConfidence(family)) },
    }))
    .filter(({ clue }) => clue.confidence > 0);
}

/**
 * What the image's statistics suggest, family by family, before calibration decides which may be
 * stated (confidence 0 here). The calibration set measures these, so a family that was dropped
 * is still measured, and comes back once the set shows it holds the truth.
 */
export function candidateClues(st: ImageStats, now = currentYear()): { family: ClueFamily; clue: AiClue }[] {
  const clues: { family: ClueFamily; clue: AiClue }[] = [];
  const add = (family: ClueFamily, category: string, observation: string, earliestYear: number, latestYear: number) =>
    clues.push({
      family,
      clue: {
        category,
        observation,
        earliestYear: Math.max(MIN_PHOTO_YEAR, earliestYear),
        latestYear: Math.min(now, latestYear),
        confidence: 0,
      },
    });

  if (isBlank(st)) return clues; // a blank frame: nothing to read
  if (looksLikeGraphic(st)) return clues; // not a photograph

  const neutral = st.p90Spread <= 14 && st.meanSpread <= 8;
  // One hue across the whole image is a toned monochrome, however strong the toning: a deep
  // sepia or cyanotype print is as saturated as a colour photograph, and taking it for colour
  // would date a print of the 1860s after 1940. Colour photographs on the calibration set reach
  // at most 0.99 (a blue sky filling the frame); toned copies 0.997 and above.
  const toned = !neutral && st.hueConcentration >= 0.9 && (st.meanSat <= 0.5 || st.hueConcentration >= ONE_HUE);
  const lowContrast = st.lumP98 - st.lumP2 < 190;
  const magentaCast = st.meanR - st.meanG >= 12 && st.meanB - st.meanG >= 4;
  const redCast = st.meanR - st.meanG >= 12 && st.meanR - st.meanB >= 25;

  if (neutral) {
    add(
      'monochrome-neutral',
      'photographic-process',
      'Monochrome (neutral black-and-white) image. Black-and-white dominated amateur photography until the late 1960s, but it never stopped being used, and a greyscale scan of a colour print looks the same, so it reaches the present.',
      1850,
      now,
    );
  } else if (toned && st.hue >= 10 && st.hue <= 60) {
    add(
      'monochrome-sepia',
      'photographic-process',
      'Warm brown/sepia monochrome tone, as in albumen prints (1850s–1890s) or sepia-toned and aged gelatin silver prints (to about the 1930s). Yellowed paper, later toning or a digital filter produce the same look, so it reaches the present.',
      1850,
      now,
    );
  } else if (toned && st.hue >= 180 && st.hue <= 250) {
    add(
      'monochrome-blue',
      'photographic-process',
      'Blue/cyan monochrome tone, as in cyanotypes (common about 1880s–1920s), though blue toning and filters exist in every period, so it reaches the present.',
      1842,
      now,
    );
  } else if ((magentaCast || redCast || (toned && (st.hue >= 280 || st.hue < 10))) && lowContrast) {
    add(
      'colour-faded',
      'photographic-process',
      `Faded colour with a ${magentaCast ? 'magenta' : 'red'} cast and weak cyan/blue and low contrast, typical of chromogenic prints of the 1950s–1980s whose cyan dye has faded. Warm lighting or white-balance errors in later pictures look similar: colour only ever pushes the date later.`,
      1950,
      now,
    );
  } else if (!toned) {
    add(
      'colour-full',
      'photographic-process',
      'Full-colour image. Colour prints became common for amateurs from the 1950s–60s (earlier processes exist but are rare); hand-colouring and digital colourisation can mimic this.',
      1940,
      now,
    );
  } else {
    add(
      'monochrome-toned',
      'photographic-process',
      `Toned monochrome image (hue about ${Math.round(st.hue)}°); not specific to a period.`,
      1850,
      now,
    );
  }

  const b = st.border;
  const sides = [b.top, b.bottom, b.left, b.right];
  if (sides.every((f) => f >= 0.02 && f <= 0.25)) {
    add(
      'border',
      'print-format',
      'Uniform light margin on all four sides, like the white (sometimes deckle-edged) borders of prints common from about the 1920s to the 1960s. It could also be a mount, a scanner bed, or a border added later.',
      1920,
      1970,
    );
  }

  let best: Format | null = null;
  for (const f of HISTORICAL_FORMATS) {
    const d = Math.abs(st.aspect - f.ratio);
    if (d <= f.tolerance && (!best || d < Math.abs(st.aspect - best.ratio))) best = f;
  }
  if (best) {
    add(
      best.family,
      'print-format',
      `Aspect ratio ${st.aspect.toFixed(2)}:1 matches ${best.name}. Scans are often cropped, so shape is a weak signal.`,
      best.earliest,
      best.latest === 'now' ? now : best.latest,
    );
  }
  return clues;
}

export function combineClues(
  clues: readonly AiClue[],
  now = currentYear(),
): Pick<AiAnalysis, 'earliestYear' | 'latestYear' | 'confidence'> & { conflict: boolean } {
  const informative = clues.filter((c) => c.confidence >= INFORMATIVE && c.earliestYear !== null && c.latestYear !== null);
  if (informative.length === 0) return { earliestYear: null, latestYear: null, confidence: 0, conflict: false };
  let lo = Math.max(...informative.map((c) => c.earliestYear!));
  let hi = Math.min(...informative.map((c) => c.latestYear!));
  const maxConf = Math.max(...informative.map((c) => c.confidence));
  if (lo > hi) {
    // The signals disagree: report the span they cover, which holds the date whenever any one of
    // them does (so at least the surest one's confidence).
    return {
      earliestYear: Math.min(...informative.map((c) => c.earliestYear!)),
      latestYear: Math.max(...informative.map((c) => c.latestYear!)),
      confidence: maxConf,
      conflict: true,
    };
  }
  if (hi - lo < MIN_OVERALL_SPAN) {
    const pad = Math.ceil((MIN_OVERALL_SPAN - (hi - lo)) / 2);
    lo = Math.max(MIN_PHOTO_YEAR, lo - pad);
    hi = Math.min(now, hi + pad);
  }
  // Their common part holds the date when every one of them does. When it is one clue's own
  // interval (inside all the others), that is exactly when that clue holds: its confidence.
  // Otherwise at least 1 − the sum of their chances to miss, whatever their dependence.
  const equal = informative.filter((c) => c.earliestYear === lo && c.latestYear === hi).map((c) => c.confidence);
  const allHold = equal.length ? Math.max(...equal) : 1 - informative.reduce((sum, c) => sum + (1 - c.confidence), 0);
  const confidence = Math.max(0, Math.min(HEURISTIC_CONFIDENCE_CAP, allHold));
  return { earliestYear: lo, latestYear: hi, confidence: Math.floor(confidence * 100) / 100, conflict: false };
}

export async function analyzeHeuristically(imagePath: string, opts: { signal?: AbortSignal } = {}): Promise<AiAnalysis> {
  opts.signal?.throwIfAborted();
  const sample = await sampleRgb(imagePath);
  opts.signal?.throwIfAborted();
  return analysisFromStats(computeImageStats(sample));
}

/** The analysis of an image from its statistics (the calibration reads both). */
export function analysisFromStats(stats: ImageStats): AiAnalysis {
  const clues = cluesFromStats(stats);
  const overall = combineClues(clues);
  const caveat =
    'Heuristic from image statistics only (tone, colour, contrast, borders, shape): weak evidence, a rough prior rather than a date. Processes and formats overlapped for decades, and a scan, copy print or edit can change every signal.';
  let summary: string;
  if (!isBlank(stats) && looksLikeGraphic(stats)) {
    summary = `${caveat} The image looks like a drawing, diagram, flat graphic or screenshot rather than a photograph (flat fills), so it gives no clue.`;
  } else if (overall.earliestYear === null) {
    summary = `${caveat} Nothing in the statistics narrows the date.`;
  } else if (overall.conflict) {
    summary = `${caveat} The signals disagree; they span ${overall.earliestYear}–${overall.latestYear} (evidence confidence ${formatPercent(overall.confidence)}).`;
  } else {
    summary = `${caveat} Suggests roughly ${overall.earliestYear}–${overall.latestYear}, ${weakClueTag({ earliestYear: overall.earliestYear, latestYear: overall.latestYear })} (evidence confidence ${formatPercent(overall.confidence)}).`;
  }
  return {
    backend: 'heuristic',
    model: null,
    earliestYear: overall.earliestYear,
    latestYear: overall.latestYear,
    confidence: overall.confidence,
    summary,
    clues,
  };
}
