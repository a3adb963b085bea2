/**
 * The perceptual hashes a photo is compared by to find the same photograph in other scans, and
 * which of them are compared with which. Shared by the worker (which computes and compares them)
 * and main (which stores them and knows when they are out of date), so it imports nothing.
 *
 * Method 2 (this one): seven 64-bit DCT pHashes of the oriented thumbnail-sized pixels, each over
 * a 32×32 exact box-filtered grid of luma:
 *  - `full`: the whole image;
 *  - `content`: what is inside a uniform border (a print's white border, the scanner bed), found
 *    by trimming edge lines of one colour;
 *  - `centre`: the content inset 2.5 % on every side (a copy cropped a little on all sides, a
 *    slightly rotated scan whose corners show the scanner bed);
 *  - four `corner` hashes: the content with 5 % cut off two adjacent sides (a copy cropped on one
 *    side). Measured on the shared corpus, see test/duplicates/accuracy.test.ts.
 * Method 1 (before duplicates existed) was the `full` hash alone, sampled on whole pixel cells.
 */

export const PHOTO_HASH_METHOD = 2;

export const HASH_KINDS = ['full', 'content', 'centre', 'cornerTL', 'cornerTR', 'cornerBL', 'cornerBR'] as const;
export type HashKind = (typeof HASH_KINDS)[number];
export const HASHES_PER_PHOTO = HASH_KINDS.length;
export const KIND = Object.fromEntries(HASH_KINDS.map((k, i) => [k, i])) as Record<HashKind, number>;
export const CORNER_KINDS = [KIND.cornerTL, KIND.cornerTR, KIND.cornerBL, KIND.cornerBR] as const;

/**
 * Two photos are the same photograph when any of these pairs of their hashes is within the
 * distance. Every extra pair costs false matches (about one more chance per pair of photos), so
 * only pairs that found a transformation the others missed are here: whole with whole; inside
 * the border with inside the border (a border added or removed); content and centre either way
 * (a crop on all sides, a slight rotation); content with a corner crop (a crop on one side).
 */
export type MatchedBy = 'full' | 'content' | 'centre' | 'corner';
export const MATCHED_BY: readonly MatchedBy[] = ['full', 'content', 'centre', 'corner'];

/** Whether kinds a and b are compared, and what a match between them is called. */
export function matchOf(a: number, b: number): MatchedBy | null {
  if (a === KIND.full || b === KIND.full) return a === b ? 'full' : null;
  if (a === KIND.content && b === KIND.content) return 'content';
  const centreOrContent = (k: number) => k === KIND.content || k === KIND.centre;
  if (centreOrContent(a) && centreOrContent(b)) return 'centre';
  const corner = (k: number) => k >= KIND.cornerTL;
  if ((corner(a) && b === KIND.content) || (corner(b) && a === KIND.content)) return 'corner';
  return null;
}

/** Default and bounds of the Hamming distance under which two hashes are the same picture. */
export const DEFAULT_MAX_DISTANCE = 6;
export const MAX_MAX_DISTANCE = 32;

const HEX16 = /^[0-9a-f]{16}$/;

export function isHashHex(s: string): boolean {
  return HEX16.test(s);
}

/**
 * Stored form: a BLOB of HASHES_PER_PHOTO × (high 32 bits, low 32 bits), each little-endian.
 * `into` receives the 2 × HASHES_PER_PHOTO words at `offset` (the scan packs many photos into one array).
 */
export function hashesFromHex(hex: readonly string[], into: Uint32Array, offset = 0): void {
  if (hex.length !== HASHES_PER_PHOTO || !hex.every(isHashHex)) throw new Error('expected seven 16-character hex hashes');
  hex.forEach((h, i) => {
    into[offset + 2 * i] = parseInt(h.slice(0, 8), 16) >>> 0;
    into[offset + 2 * i + 1] = parseInt(h.slice(8), 16) >>> 0;
  });
}

export function hashesToHex(words: ArrayLike<number>, offset = 0): string[] {
  const hex = (n: number) => (n >>> 0).toString(16).padStart(8, '0');
  return HASH_KINDS.map((_, i) => hex(words[offset + 2 * i]) + hex(words[offset + 2 * i + 1]));
}

/** Bits set in a 32-bit word. */
export function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

const BLOB_BYTES = HASHES_PER_PHOTO * 8;

/** The stored BLOB of a photo's hashes (see above). */
export function hashesToBlob(hex: readonly string[]): Uint8Array {
  const words = new Uint32Array(2 * HASHES_PER_PHOTO);
  hashesFromHex(hex, words);
  const blob = new Uint8Array(BLOB_BYTES);
  const view = new DataView(blob.buffer);
  words.forEach((w, i) => view.setUint32(4 * i, w, true));
  return blob;
}

/** Unpacks a stored BLOB into `into` at `offset`; false when the BLOB is not one (a damaged row). */
export function blobInto(blob: Uint8Array, into: Uint32Array, offset: number): boolean {
  if (blob.byteLength !== BLOB_BYTES) return false;
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  for (let i = 0; i < 2 * HASHES_PER_PHOTO; i++) into[offset + i] = view.getUint32(4 * i, true);
  return true;
}

/**
 * The distance of two photos (the smallest over the pairs of hashes that are compared) and which
 * pair gave it: the reference the index is tested against. `a` and `b` hold 2 × HASHES_PER_PHOTO
 * words per photo, at offsets `ia` and `ib`.
 */
export function photoDistance(a: Uint32Array, ia: number, b: Uint32Array, ib: number): { distance: number; by: MatchedBy } {
  let best = 65;
  let by: MatchedBy = 'full';
  for (let ka = 0; ka < HASHES_PER_PHOTO; ka++) {
    for (let kb = 0; kb < HASHES_PER_PHOTO; kb++) {
      const m = matchOf(ka, kb);
      if (!m) continue;
      const d = popcount32((a[ia + 2 * ka] ^ b[ib + 2 * kb]) >>> 0) + popcount32((a[ia + 2 * ka + 1] ^ b[ib + 2 * kb + 1]) >>> 0);
      if (d < best || (d === best && MATCHED_BY.indexOf(m) < MATCHED_BY.indexOf(by))) {
        best = d;
        by = m;
      }
    }
  }
  return { distance: best, by };
}
