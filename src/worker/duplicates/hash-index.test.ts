import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HASHES_PER_PHOTO, photoDistance, popcount32 } from '../../shared/duplicates/hash-set';
import { HashIndex } from './hash-index';
import { BATCH, findPairs, type PackedPhotos } from './find-pairs';
import { hashes, photos } from '../../../test/support/random-hashes';

const WORDS = 2 * HASHES_PER_PHOTO;
const bruteWithin = (hi: Uint32Array, lo: Uint32Array, qhi: number, qlo: number, d: number) => {
  const out: string[] = [];
  for (let e = 0; e < hi.length; e++) {
    const dist = popcount32((hi[e] ^ qhi) >>> 0) + popcount32((lo[e] ^ qlo) >>> 0);
    if (dist <= d) out.push(`${e}:${dist}`);
  }
  return out.sort();
};

describe('HashIndex (multi-index hashing)', () => {
  it('finds exactly what a brute-force comparison finds, at every distance, before any bound', () => {
    fc.assert(
      fc.property(hashes(300), fc.integer({ min: 0, max: 32 }), fc.nat(), fc.nat(), ({ hi, lo }, d, pick, cut) => {
        const index = new HashIndex(hi, lo);
        // Query with stored hashes (so there are hits) and with a bit-flipped one.
        const q = pick % hi.length;
        const below = cut % (hi.length + 1);
        for (const [qhi, qlo] of [
          [hi[q], lo[q]],
          [(hi[q] ^ 0x00010001) >>> 0, (lo[q] ^ 0x80000000) >>> 0],
        ]) {
          const found: string[] = [];
          index.within(qhi, qlo, d, (e, dist) => found.push(`${e}:${dist}`));
          expect(found.sort()).toEqual(bruteWithin(hi, lo, qhi, qlo, d));
          const before: string[] = [];
          index.within(qhi, qlo, d, (e, dist) => before.push(`${e}:${dist}`), below);
          expect(before.sort()).toEqual(bruteWithin(hi.subarray(0, below), lo.subarray(0, below), qhi, qlo, d));
        }
      }),
      { numRuns: 300 },
    );
  });
});

const brutePairs = (a: PackedPhotos, b: PackedPhotos | null, d: number) => {
  const out: string[] = [];
  const other = b ?? a;
  for (let i = 0; i < a.ids.length; i++) {
    for (let j = b ? 0 : i + 1; j < other.ids.length; j++) {
      const r = photoDistance(a.words, i * WORDS, other.words, j * WORDS);
      if (r.distance <= d) {
        const [x, y] = [a.ids[i], other.ids[j]].sort((m, n) => m - n);
        out.push(`${x}-${y}:${r.distance}:${r.by}`);
      }
    }
  }
  return out.sort();
};

// Below BATCH.sortedFrom queries a search goes photo by photo; from it on, table by table in bucket
// order, and photo by photo again when a batch finds more than BATCH.maxHits matches of hashes.
describe.each([
  { how: 'photo by photo', sortedFrom: Infinity, maxHits: BATCH.maxHits },
  { how: 'table by table', sortedFrom: 0, maxHits: BATCH.maxHits },
  { how: 'table by table, falling back to photo by photo', sortedFrom: 0, maxHits: 1 },
])('findPairs, $how', ({ sortedFrom, maxHits }) => {
  const saved = { ...BATCH };
  beforeEach(() => Object.assign(BATCH, { sortedFrom, maxHits }));
  afterEach(() => Object.assign(BATCH, saved));
  const key = (p: { a: number; b: number; distance: number; by: string }) => `${p.a}-${p.b}:${p.distance}:${p.by}`;

  it('within one set: the pairs a brute-force comparison of every pair of photos finds', () => {
    fc.assert(
      fc.property(photos(60, 1), fc.integer({ min: 0, max: 20 }), (set, d) => {
        const found = findPairs(set, null, { maxDistance: d, maxPerPhoto: 1000 }).map(key);
        expect(found.sort()).toEqual(brutePairs(set, null, d));
      }),
      { numRuns: 150 },
    );
  });

  it('within one set whose ids do not ascend: the same as brute force', () => {
    fc.assert(
      fc.property(photos(60, 1), fc.integer({ min: 0, max: 20 }), (set, d) => {
        // Descending ids: the searches cannot skip the photos after the searching one.
        const reversed = { ids: set.ids.slice().reverse(), words: new Uint32Array(set.words.length) };
        for (let p = 0; p < set.ids.length; p++)
          reversed.words.set(set.words.subarray(p * WORDS, (p + 1) * WORDS), (set.ids.length - 1 - p) * WORDS);
        const found = findPairs(reversed, null, { maxDistance: d, maxPerPhoto: 1000 }).map(key);
        expect(found.sort()).toEqual(brutePairs(set, null, d));
      }),
      { numRuns: 100 },
    );
  });

  it('between two sets, whichever is larger: the same as brute force', () => {
    fc.assert(
      fc.property(photos(40, 1), photos(40, 1000), fc.integer({ min: 0, max: 20 }), (q, r, d) => {
        const found = findPairs(q, r, { maxDistance: d, maxPerPhoto: 1000 }).map(key);
        expect(found.sort()).toEqual(brutePairs(q, r, d));
      }),
      { numRuns: 150 },
    );
  });

  it('keeps only the nearest matches of a photo that matches too many', () => {
    const n = 30;
    const words = new Uint32Array(n * WORDS).fill(0x12345678);
    // Every hash of photo p is popcount(p) bits from photo 0's.
    for (let p = 0; p < n; p++) for (let k = 0; k < HASHES_PER_PHOTO; k++) words[p * WORDS + 2 * k + 1] = p;
    const set = { ids: Int32Array.from({ length: n }, (_, i) => i + 1), words };
    const one = { ids: Int32Array.of(1), words: words.slice(0, WORDS) };
    const rest = { ids: set.ids.slice(1), words: words.slice(WORDS) };
    const found = findPairs(one, rest, { maxDistance: 6, maxPerPhoto: 5 });
    expect(found).toHaveLength(5);
    expect(found.map((p) => p.distance)).toEqual([1, 1, 1, 1, 1]);
  });

  it('stops when aborted', () => {
    const set = { ids: Int32Array.from({ length: 600 }, (_, i) => i + 1), words: new Uint32Array(600 * WORDS) };
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    expect(() => findPairs(set, null, { maxDistance: 6, maxPerPhoto: 10, signal: controller.signal })).toThrow('cancelled');
  });
});
