/**
 * 64-bit perceptual hash: DCT pHash (the algorithm of pHash.org / Python `imagehash.phash`).
 *
 *  1. The (already oriented, flattened) image's 8-bit pixels are reduced to a 32×32 greyscale
 *     image: each cell is the mean Rec. 601 luma of the area it covers (an exact box filter that
 *     counts partly covered pixels in part, ignoring the aspect ratio; see luma-grid.ts).
 *  2. A 2-D DCT-II is taken; only the 8×8 lowest frequencies are kept (row = vertical frequency,
 *     column = horizontal frequency, DC included as in imagehash).
 *  3. Each of the 64 coefficients becomes one bit: 1 when it is above the median of the 64.
 *  4. Bits are packed row-major, most significant bit first, into 16 lowercase hex characters.
 *
 * Chosen over dHash because it is far less sensitive to re-encoding, mild resizing, gamma and
 * contrast changes (exactly what distinguishes two scans of the same print). The metadata job
 * computes it from the thumbnail's pixels before they are encoded (`phashFromPixels`, and the
 * duplicate hashes of photo-hashes.ts from the same pixels), so it costs no decode of its own.
 * Compare hashes with `hammingDistance`: ≤ 6 is very likely the same picture, ≥ 20 is a
 * different one. Photos hashed before the box filter (method 1) are re-hashed by the duplicate scan.
 */
import sharp from 'sharp';
import { DEFAULT_THUMBNAIL_LONG_SIDE } from './thumbnail';
import { LumaPlane } from './luma-grid';

export const PHASH_INPUT_SIZE = 32;
const LOW = 8;
const N = PHASH_INPUT_SIZE;

/** cos((2x+1)·k·π / 2N) for k < 8, x < 32, computed once. */
const COS: Float64Array = (() => {
  const t = new Float64Array(LOW * N);
  for (let k = 0; k < LOW; k++) for (let x = 0; x < N; x++) t[k * N + x] = Math.cos(((2 * x + 1) * k * Math.PI) / (2 * N));
  return t;
})();

/**
 * pHash of a 32×32 greyscale image given row-major, one value per pixel (0–255).
 * Exposed for tests and for callers that already hold the pixels.
 */
export function phashFromGreyscale(pixels: ArrayLike<number>): string {
  if (pixels.length !== N * N) throw new Error(`phash needs ${N * N} greyscale pixels, got ${pixels.length}`);
  // Rows first: R[r][v] = Σ_c p[r][c]·cos(v, c)
  const rows = new Float64Array(N * LOW);
  for (let r = 0; r < N; r++) {
    for (let v = 0; v < LOW; v++) {
      let s = 0;
      for (let c = 0; c < N; c++) s += pixels[r * N + c] * COS[v * N + c];
      rows[r * LOW + v] = s;
    }
  }
  // Then columns: F[u][v] = Σ_r R[r][v]·cos(u, r)
  const coeffs = new Float64Array(LOW * LOW);
  for (let u = 0; u < LOW; u++) {
    for (let v = 0; v < LOW; v++) {
      let s = 0;
      for (let r = 0; r < N; r++) s += rows[r * LOW + v] * COS[u * N + r];
      coeffs[u * LOW + v] = s;
    }
  }
  const sorted = Array.from(coeffs).sort((a, b) => a - b);
  const median = (sorted[31] + sorted[32]) / 2;
  // Floating-point noise on a flat image must not turn into random bits.
  const epsilon = 1e-6 * Math.max(1, Math.abs(coeffs[0]));
  let hex = '';
  for (let nibble = 0; nibble < 16; nibble++) {
    let value = 0;
    for (let bit = 0; bit < 4; bit++) {
      value = (value << 1) | (coeffs[nibble * 4 + bit] - median > epsilon ? 1 : 0);
    }
    hex += value.toString(16);
  }
  return hex;
}

/**
 * pHash of decoded 8-bit pixels: row-major, `channels` interleaved values per pixel (1 or 2: grey
 * first; 3 or 4: RGB first). Any alpha is ignored, so flatten transparency first.
 */
export function phashFromPixels(data: Uint8Array, width: number, height: number, channels: number): string {
  return phashFromGreyscale(new LumaPlane(data, width, height, channels).grid(N));
}

/**
 * pHash of an encoded image (any format sharp reads), read at thumbnail size and flattened onto
 * white. Orientation is NOT applied here: pass an already oriented image (the thumbnail), so that a
 * rotated scan and its upright copy compare as what they look like.
 */
export async function computePhash(image: Buffer | Uint8Array): Promise<string> {
  const { data, info } = await sharp(image, { failOn: 'error' })
    .resize({
      width: DEFAULT_THUMBNAIL_LONG_SIDE,
      height: DEFAULT_THUMBNAIL_LONG_SIDE,
      fit: 'inside',
      withoutEnlargement: true,
    })
    .flatten({ background: '#ffffff' })
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  return phashFromPixels(data, info.width, info.height, info.channels);
}

const HASH_RE = /^[0-9a-f]{16}$/i;

/** Number of differing bits between two 16-hex-character hashes (0–64). */
export function hammingDistance(a: string, b: string): number {
  if (!HASH_RE.test(a) || !HASH_RE.test(b)) {
    throw new Error(`hammingDistance needs two 16-character hex hashes, got "${a}" and "${b}"`);
  }
  let distance = 0;
  // Two 32-bit halves: exact, and no BigInt needed.
  for (const [from, to] of [
    [0, 8],
    [8, 16],
  ] as const) {
    let x = (parseInt(a.slice(from, to), 16) ^ parseInt(b.slice(from, to), 16)) >>> 0;
    while (x !== 0) {
      x &= x - 1;
      distance++;
    }
  }
  return distance;
}
