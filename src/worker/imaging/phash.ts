/**
 * 64-bit perceptual hash: DCT pHash (the algorithm of pHash.org / Python `imagehash.phash`).
 *
 *  1. The (already oriented) image is flattened onto white, converted to greyscale and resized
 *     to 32×32, ignoring the aspect ratio.
 *  2. A 2-D DCT-II is taken; only the 8×8 lowest frequencies are kept (row = vertical frequency,
 *     column = horizontal frequency, DC included as in imagehash).
 *  3. Each of the 64 coefficients becomes one bit: 1 when it is above the median of the 64.
 *  4. Bits are packed row-major, most significant bit first, into 16 lowercase hex characters.
 *
 * Chosen over dHash because it is far less sensitive to re-encoding, mild resizing, gamma and
 * contrast changes (exactly what distinguishes two scans of the same print), at a negligible cost
 * here since it runs on the 512 px thumbnail, never on the full image. Compare hashes with
 * `hammingDistance`: ≤ 6 is very likely the same picture, ≥ 20 is a different one.
 */
import sharp from 'sharp';

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
 * pHash of an encoded image (any format sharp reads). Orientation is NOT applied here: pass an
 * already oriented image (the thumbnail), so that a rotated scan and its upright copy compare
 * as what they look like.
 */
export async function computePhash(image: Buffer | Uint8Array): Promise<string> {
  const { data, info } = await sharp(image, { failOn: 'error' })
    .flatten({ background: '#ffffff' })
    .greyscale()
    .resize(N, N, { fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const channels = info.channels;
  if (channels === 1) return phashFromGreyscale(data);
  const grey = new Uint8Array(N * N);
  for (let i = 0; i < grey.length; i++) grey[i] = data[i * channels];
  return phashFromGreyscale(grey);
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
