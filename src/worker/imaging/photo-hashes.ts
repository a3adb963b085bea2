/**
 * The seven duplicate hashes of a photo (method and kinds: src/shared/duplicates/hash-set.ts),
 * from the same decoded pixels the metadata job makes the thumbnail from. One pass builds the
 * luma and its summed-area table; each hash then costs a 32×32 grid and a DCT.
 *
 * Border: a print scanned with its white border, or a scan that shows the scanner bed, has edge
 * lines of one colour. They are trimmed in up to three passes (a cream border around a photo
 * with a white margin comes off in two), at most 30 % of each side in all. A line is border when
 * 98 % of its pixels are within 24 levels of the edge's median luma (JPEG noise stays inside).
 *
 * A nearly uniform image (a blank page, an empty frame) has no picture to recognise: its pHash
 * is noise that matches other blank scans, so it gets no duplicate hashes at all.
 */
import sharp from 'sharp';
import { HASH_KINDS, type HashKind } from '../../shared/duplicates/hash-set';
import { LumaPlane, LumaScratch } from './luma-grid';
import { phashFromGreyscale } from './phash';
import { DEFAULT_THUMBNAIL_LONG_SIDE } from './thumbnail';

const GRID = 32;
const BORDER_TOLERANCE = 24;
const BORDER_LINE_SHARE = 0.98;
const BORDER_MAX_SHARE = 0.3;
const BORDER_PASSES = 3;
const CENTRE_INSET = 0.025;
const CORNER_CUT = 0.05;
/** Standard deviation of the 32×32 luma (0–255) below which an image is too uniform to compare. */
export const MIN_PICTURE_CONTRAST = 8;

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface PhotoHashes {
  /** pHash of the whole image (stored as the photo's `phash`). */
  full: string;
  /** The seven duplicate hashes in HASH_KINDS order, or null when the image is too uniform to compare. */
  hashes: string[] | null;
  /** What the border trim kept (for tests and diagnostics). */
  content: Box;
}

/** The plane's arrays, reused photo after photo: the plane never outlives the synchronous call below. */
const scratch = new LumaScratch();

export function photoHashesFromPixels(data: Uint8Array, width: number, height: number, channels: number): PhotoHashes {
  const plane = new LumaPlane(data, width, height, channels, scratch);
  const whole = plane.grid(GRID);
  const full = phashFromGreyscale(whole);
  const content = trimBorder(plane);
  if (standardDeviation(whole) < MIN_PICTURE_CONTRAST) return { full, hashes: null, content };
  const regions = hashRegions(content);
  const hashes = HASH_KINDS.map((kind) =>
    kind === 'full' ? full : phashFromGreyscale(plane.grid(GRID, ...boxArgs(regions[kind]))),
  );
  return { full, hashes, content };
}

/**
 * The hashes of an encoded image, decoded as the metadata job decodes a photo (oriented, at
 * thumbnail size, flattened onto white). The duplicate scan re-hashes a photo hashed by an older
 * method from its thumbnail this way; tests hash their generated copies this way.
 */
export async function computePhotoHashes(image: Buffer | Uint8Array): Promise<PhotoHashes> {
  const { data, info } = await sharp(image, { failOn: 'error' })
    .rotate()
    .resize({ width: DEFAULT_THUMBNAIL_LONG_SIDE, height: DEFAULT_THUMBNAIL_LONG_SIDE, fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  return photoHashesFromPixels(data, info.width, info.height, info.channels);
}

const boxArgs = (b: Box) => [b.x0, b.y0, b.x1, b.y1] as const;

/** The rectangle each kind is hashed over, given the content box (exported for tests). */
export function hashRegions(c: Box): Record<Exclude<HashKind, 'full'>, Box> {
  const w = c.x1 - c.x0;
  const h = c.y1 - c.y0;
  const ix = w * CENTRE_INSET;
  const iy = h * CENTRE_INSET;
  const cx = w * CORNER_CUT;
  const cy = h * CORNER_CUT;
  return {
    content: c,
    centre: { x0: c.x0 + ix, y0: c.y0 + iy, x1: c.x1 - ix, y1: c.y1 - iy },
    // Named by the corner that is kept.
    cornerTL: { x0: c.x0, y0: c.y0, x1: c.x1 - cx, y1: c.y1 - cy },
    cornerTR: { x0: c.x0 + cx, y0: c.y0, x1: c.x1, y1: c.y1 - cy },
    cornerBL: { x0: c.x0, y0: c.y0 + cy, x1: c.x1 - cx, y1: c.y1 },
    cornerBR: { x0: c.x0 + cx, y0: c.y0 + cy, x1: c.x1, y1: c.y1 },
  };
}

function standardDeviation(values: Float64Array): number {
  let sum = 0;
  for (const v of values) sum += v;
  const mean = sum / values.length;
  let sq = 0;
  for (const v of values) sq += (v - mean) ** 2;
  return Math.sqrt(sq / values.length);
}

/** The box inside any uniform border (exported for tests). */
export function trimBorder(plane: LumaPlane): Box {
  const { width: w, height: h } = plane;
  const limit = { x: Math.floor(w * BORDER_MAX_SHARE), y: Math.floor(h * BORDER_MAX_SHARE) };
  let box: Box = { x0: 0, y0: 0, x1: w, y1: h };
  for (let pass = 0; pass < BORDER_PASSES; pass++) {
    const next = trimOnce(plane, box, limit);
    if (next.x0 === box.x0 && next.y0 === box.y0 && next.x1 === box.x1 && next.y1 === box.y1) break;
    box = next;
  }
  return box;
}

function trimOnce(plane: LumaPlane, box: Box, limit: { x: number; y: number }): Box {
  const { width: w, height: h, luma } = plane;
  const edge = edgeMedian(plane, box);
  const tolerance = BORDER_TOLERANCE * 256;
  const near = (i: number) => Math.abs(luma[i] - edge) <= tolerance;
  // A line is border when at least BORDER_LINE_SHARE of it is near the edge's colour: the count
  // stops as soon as the pixels that are not near make that impossible (most lines of a photo
  // are decided within a few pixels).
  const rowIsBorder = (y: number, x0: number, x1: number) => {
    const enough = BORDER_LINE_SHARE * (x1 - x0);
    let far = 0;
    for (let x = x0, i = y * w + x0; x < x1; x++, i++) if (!near(i) && x1 - x0 - ++far < enough) return false;
    return true;
  };
  const columnIsBorder = (x: number, y0: number, y1: number) => {
    const enough = BORDER_LINE_SHARE * (y1 - y0);
    let far = 0;
    for (let y = y0, i = y0 * w + x; y < y1; y++, i += w) if (!near(i) && y1 - y0 - ++far < enough) return false;
    return true;
  };
  let { x0, y0, x1, y1 } = box;
  while (y0 < limit.y && rowIsBorder(y0, x0, x1)) y0++;
  while (h - y1 < limit.y && rowIsBorder(y1 - 1, x0, x1)) y1--;
  while (x0 < limit.x && columnIsBorder(x0, y0, y1)) x0++;
  while (w - x1 < limit.x && columnIsBorder(x1 - 1, y0, y1)) x1--;
  return { x0, y0, x1, y1 };
}

/** Median luma (× 256) of the box's outermost lines: the border's colour, if it has one. */
function edgeMedian(plane: LumaPlane, b: Box): number {
  const { width: w, luma } = plane;
  // A typed array sorts numerically and natively (no comparator call per step).
  const ring = new Uint32Array(2 * (b.x1 - b.x0) + 2 * (b.y1 - b.y0));
  let k = 0;
  for (let x = b.x0; x < b.x1; x++) {
    ring[k++] = luma[b.y0 * w + x];
    ring[k++] = luma[(b.y1 - 1) * w + x];
  }
  for (let y = b.y0; y < b.y1; y++) {
    ring[k++] = luma[y * w + b.x0];
    ring[k++] = luma[y * w + b.x1 - 1];
  }
  ring.sort();
  return ring[ring.length >> 1];
}
