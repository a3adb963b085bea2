/**
 * Image preparation for OCR. The file is decoded once (EXIF-oriented, transparency flattened onto
 * white, greyscale) into an `OcrSource`; each reading attempt then renders a variant of it: scaled,
 * smoothed against paper grain, and contrast-stretched against the paper's own grey, globally or
 * locally. Cheap measurements of the source's frame (the paper's grey and its grain) seed the
 * first choice.
 */
import fs from 'node:fs/promises';
import sharp, { type Sharp } from 'sharp';
import { PermanentJobError } from '../../shared/jobs/errors';

/** Never hand Tesseract more than this on the long side. */
export const OCR_MAX_LONG_SIDE = 4000;
/** Upscale only images whose short side is below this before anything is known about their text. */
export const OCR_TINY_SHORT_SIDE = 300;

export interface OcrSource {
  /** EXIF-oriented dimensions of the file: line boxes are reported in this space. */
  width: number;
  height: number;
  /** Greyscale pixels, `decodedWidth` × `decodedHeight`, one byte each. */
  grey: Buffer;
  decodedWidth: number;
  decodedHeight: number;
  /** Median grey level of the outer frame (5 % of each side): the paper or page colour. */
  borderMedian: number;
  /** Median absolute deviation of the frame's grey levels: paper grain and scanner noise. */
  borderNoise: number;
}

export interface OcrVariant {
  /** Factor from oriented source pixels to the rendered image's pixels. */
  scale: number;
  /**
   * `paper`: the paper's own grey (the frame's median) becomes white and the darkest ink black,
   * which keeps faint grey-on-grey writing while the grain of the paper turns white; `global`:
   * stretch the 1st–99th percentile; `local`: CLAHE, for a grey label beside a dark print.
   */
  contrast: 'paper' | 'global' | 'local';
  /** Gaussian smoothing against grain (sigma in source pixels), or 0. */
  denoise: number;
  /**
   * Areas painted over in the paper's grey before anything else (boxes in decoded pixels): the
   * picture, when only its caption band, mount and margins are to be read (layout.ts).
   */
  mask?: readonly Box[];
}

export interface RenderedVariant {
  png: Buffer;
  width: number;
  height: number;
}

/** First guess of the scale: keep the scan's own pixels, upscale only tiny images, cap huge ones. */
export function initialOcrScale(width: number, height: number): number {
  const short = Math.min(width, height);
  const long = Math.max(width, height);
  let scale = short < OCR_TINY_SHORT_SIDE ? 2 : 1;
  if (long * scale > OCR_MAX_LONG_SIDE) scale = OCR_MAX_LONG_SIDE / long;
  return scale;
}

/** The largest scale that still fits Tesseract's size limit. */
function maxOcrScale(width: number, height: number): number {
  return OCR_MAX_LONG_SIDE / Math.max(width, height);
}

function medianOf(hist: Uint32Array, n: number): number {
  let seen = 0;
  for (let v = 0; v < hist.length; v++) {
    seen += hist[v];
    if (seen * 2 >= n) return v;
  }
  return hist.length - 1;
}

/** Median and median absolute deviation of the outer frame (5 % of each side). */
export function borderStats(grey: Buffer, w: number, h: number): { median: number; noise: number } {
  const band = Math.max(1, Math.round(Math.min(w, h) * 0.05));
  const rows: [number, number][] = [];
  for (let y = 0; y < h; y++) {
    const row = y * w;
    if (y < band || y >= h - band) rows.push([row, row + w]);
    else rows.push([row, row + Math.min(band, w)], [row + Math.max(band, w - band), row + w]);
  }
  const hist = new Uint32Array(256);
  let n = 0;
  for (const [from, to] of rows) {
    for (let i = from; i < to; i++) hist[grey[i]]++;
    n += to - from;
  }
  const median = medianOf(hist, n);
  const dev = new Uint32Array(256);
  for (let v = 0; v < 256; v++) dev[Math.abs(v - median)] += hist[v];
  return { median, noise: medianOf(dev, n) };
}

/** Fails with a retryable Error when the file cannot be read (e.g. an unmounted drive), permanently when it cannot be decoded. */
export async function loadOcrSource(imagePath: string): Promise<OcrSource> {
  try {
    await fs.access(imagePath);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'unknown error';
    throw new Error(`Cannot read image file ${imagePath}: ${code}`, { cause: err });
  }
  try {
    const meta = await sharp(imagePath).metadata();
    const width = meta.autoOrient?.width ?? meta.width;
    const height = meta.autoOrient?.height ?? meta.height;
    if (!width || !height) throw new Error('image has no dimensions');
    // Decoded at most at the size Tesseract will ever be given, so a huge scan costs memory once.
    const cap = Math.min(1, maxOcrScale(width, height));
    let pipeline = sharp(imagePath).autoOrient();
    if (cap < 1) pipeline = pipeline.resize({ width: Math.max(1, Math.round(width * cap)), kernel: 'lanczos3' });
    const { data, info } = await pipeline
      .flatten({ background: '#ffffff' })
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    // greyscale() may still leave 3 identical channels on some inputs: keep one.
    const grey = info.channels === 1 ? data : Buffer.from(data.filter((_, i) => i % info.channels === 0));
    const border = borderStats(grey, info.width, info.height);
    return {
      width,
      height,
      grey,
      decodedWidth: info.width,
      decodedHeight: info.height,
      borderMedian: border.median,
      borderNoise: border.noise,
    };
  } catch (err) {
    throw new PermanentJobError(`Cannot decode image ${imagePath} for OCR: ${(err as Error).message}`);
  }
}

/** One byte per pixel (sharp would otherwise write a single-band image out as sRGB). */
function greyRaw(img: Sharp): Promise<Buffer> {
  return img.toColourspace('b-w').raw().toBuffer();
}

/** The grey level below which a fraction `p` of the pixels lie. */
function percentile(grey: Buffer, p: number): number {
  const hist = new Uint32Array(256);
  for (let i = 0; i < grey.length; i++) hist[grey[i]]++;
  const want = p * grey.length;
  let seen = 0;
  for (let v = 0; v < 256; v++) {
    seen += hist[v];
    if (seen > want) return v;
  }
  return 255;
}

/** The source's pixels with `boxes` painted in the paper's grey. */
function masked(src: OcrSource, boxes: readonly Box[]): Buffer {
  const out = Buffer.from(src.grey);
  for (const b of boxes) {
    const x0 = Math.max(0, Math.floor(b.x0));
    const x1 = Math.min(src.decodedWidth, Math.ceil(b.x1));
    for (let y = Math.max(0, Math.floor(b.y0)); y < Math.min(src.decodedHeight, Math.ceil(b.y1)); y++)
      out.fill(src.borderMedian, y * src.decodedWidth + x0, y * src.decodedWidth + x1);
  }
  return out;
}

/** Counts of the source's grey levels outside `exclude` (boxes in decoded pixels). */
function histogramOutside(src: Pick<OcrSource, 'grey' | 'decodedWidth'>, exclude: readonly Box[]): Uint32Array {
  const hist = new Uint32Array(256);
  const w = src.decodedWidth;
  const h = src.grey.length / w;
  // Which columns a row leaves out, per set of boxes crossing it (rows inside one box share it).
  const skipped = new Map<string, Uint8Array>();
  for (let y = 0; y < h; y++) {
    const cut = exclude.filter((b) => y >= b.y0 && y < b.y1);
    const row = y * w;
    if (!cut.length) {
      for (let x = 0; x < w; x++) hist[src.grey[row + x]]++;
      continue;
    }
    const key = cut.map((b) => exclude.indexOf(b)).join();
    let skip = skipped.get(key);
    if (!skip) {
      skip = new Uint8Array(w);
      for (const b of cut) skip.fill(1, Math.max(0, Math.floor(b.x0)), Math.min(w, Math.ceil(b.x1)));
      skipped.set(key, skip);
    }
    for (let x = 0; x < w; x++) if (!skip[x]) hist[src.grey[row + x]]++;
  }
  return hist;
}

/** The grey level below which a fraction `p` of the counted pixels lie. */
function levelAt(hist: Uint32Array, p: number): number {
  let n = 0;
  for (const c of hist) n += c;
  let seen = 0;
  for (let v = 0; v < 256; v++) {
    seen += hist[v];
    if (seen > p * n) return v;
  }
  return 255;
}

/**
 * Grey levels between the paper (the frame's median) and the ink: the darkest 0.5 % of the image
 * on light paper, the lightest on a dark page. With `exclude` (a print's picture areas) only the
 * caption band, mount and margins are measured. Low contrast is a reason to read again.
 */
export function measureInkContrast(
  src: Pick<OcrSource, 'grey' | 'decodedWidth' | 'borderMedian'>,
  exclude: readonly Box[] = [],
): number {
  const hist = histogramOutside(src, exclude);
  return Math.max(src.borderMedian - levelAt(hist, 0.005), levelAt(hist, 0.995) - src.borderMedian);
}

/** Renders one variant of the source as the PNG Tesseract reads. */
export async function renderVariant(src: OcrSource, v: OcrVariant): Promise<RenderedVariant> {
  const w = Math.max(1, Math.round(src.width * v.scale));
  const h = Math.max(1, Math.round(src.height * v.scale));
  let img = sharp(v.mask?.length ? masked(src, v.mask) : src.grey, {
    raw: { width: src.decodedWidth, height: src.decodedHeight, channels: 1 },
  });
  if (w !== src.decodedWidth || h !== src.decodedHeight)
    img = img.resize({ width: w, height: h, fit: 'fill', kernel: 'lanczos3' });
  // sharp blurs after resizing, so the sigma is given in rendered pixels.
  if (v.denoise) img = img.blur(Math.max(0.3, v.denoise * v.scale));
  if (v.contrast === 'local') {
    // Tiles of about an eighth of the image: small enough that a grey label beside a dark print
    // is stretched on its own, large enough to hold whole letters.
    const tile = Math.max(8, Math.round(Math.min(w, h) / 8));
    img = sharp(await greyRaw(img), { raw: { width: w, height: h, channels: 1 } }).clahe({
      width: tile,
      height: tile,
      maxSlope: 3,
    });
  } else if (v.contrast === 'paper') {
    const raw = await greyRaw(img);
    // Measured after smoothing: the paper's grey and what is left of its grain.
    // The white point sits below the paper by three standard deviations of that grain, so the
    // paper turns white instead of into speckles that Tesseract would try to read.
    const paper = borderStats(raw, w, h);
    const white = paper.median - 3 * 1.4826 * paper.noise;
    // With the picture painted over, the ink is the caption band's own: its darkest 0.5 %, not the
    // image's (where a small caption's strokes are fewer than that and the stretch would land on grain).
    const ink = v.mask?.length ? levelAt(histogramOutside(src, v.mask), 0.005) : percentile(raw, 0.005);
    img = sharp(raw, { raw: { width: w, height: h, channels: 1 } });
    // Paper no lighter than the ink (a dark frame, a photo to the edge): fall back to a stretch.
    if (white - ink >= 12) img = img.linear(255 / (white - ink), (-255 * ink) / (white - ink));
    else img = img.normalise();
  } else {
    img = img.normalise();
  }
  const { data, info } = await img
    .toColourspace('b-w')
    // Tesseract warns about (and guesses around) the 72 dpi of most scans; the chosen scale puts
    // caption text at roughly 300 dpi proportions.
    .withDensity(300)
    .png({ compressionLevel: 1 })
    .toBuffer({ resolveWithObject: true });
  return { png: data, width: info.width, height: info.height };
}

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Maps a box found in a rendered variant back to the source's oriented pixels. */
export function toSourceBox(box: Box, v: OcrVariant, src: Pick<OcrSource, 'width' | 'height'>): Box {
  const back = (n: number, max: number) => Math.min(max, Math.max(0, Math.round(n / v.scale)));
  return { x0: back(box.x0, src.width), y0: back(box.y0, src.height), x1: back(box.x1, src.width), y1: back(box.y1, src.height) };
}
