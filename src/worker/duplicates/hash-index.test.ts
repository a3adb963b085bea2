import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HASHES_PER_PHOTO, photoDistance, popcount32 } from '../../shared/duplicates/hash-set';
import { HashIndex, Hits, PROBING, TABLES } from './hash-index';
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

describe('HashIndex.probeMany (many queries at once, table by table)', () => {
  const saved = { ...PROBING };
  afterEach(() => Object.assign(PROBING, saved));
  /** A query `flips` bits away from stored hash `of`: exactly at, or one past, the distance searched. */
  const near = (hi: Uint32Array, lo: Uint32Array, of: number, flips: number, seed: number): [number, number] => {
    let [h, l] = [hi[of], lo[of]];
    for (let k = 0; k < flips; k++) {
      const bit = (seed + 29 * k) % 64;
      if (bit < 32) h = (h ^ (1 << bit)) >>> 0;
      else l = (l ^ (1 << (bit - 32))) >>> 0;
    }
    return [h, l];
  };

  it('finds, per query, exactly what brute force finds before its bound, at any distance it probes (edges included)', () => {
    fc.assert(
      fc.property(
        hashes(200),
        fc.integer({ min: 0, max: 15 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: -1, max: 1 }), fc.nat(), fc.nat()), { minLength: 1, maxLength: 120 }),
        fc.integer({ min: 1, max: 4_000 }),
        ({ hi, lo }, d, picks, perBlock) => {
          // Blocks of queries from one (perBlock below a query's buckets) to all of them.
          PROBING.perBlock = perBlock;
          const index = new HashIndex(hi, lo);
          expect(index.probes(d)).toBe(true);
          // Queries at d - 1, d and d + 1 bits from a stored hash (the edges of the search), each
          // with its own bound and tag.
          const n = picks.length;
          const batch = { hi: new Uint32Array(n), lo: new Uint32Array(n), below: new Uint32Array(n), tag: new Uint32Array(n), n };
          picks.forEach(([of, edge, seed, cut], j) => {
            [batch.hi[j], batch.lo[j]] = near(hi, lo, of % hi.length, Math.max(0, d + edge), seed);
            batch.below[j] = cut % (hi.length + 1);
            batch.tag[j] = 1000 + j;
          });
          const out = new Hits();
          for (let q = 0; q < TABLES; q++) index.probeMany(q, batch, d, out);
          const found: string[][] = Array.from({ length: n }, () => []);
          for (let i = 0; i < out.length; i += 3) found[out.data[i] - 1000].push(`${out.data[i + 1]}:${out.data[i + 2]}`);
          for (let j = 0; j < n; j++) {
            const b = batch.below[j];
            expect(found[j].sort()).toEqual(bruteWithin(hi.subarray(0, b), lo.subarray(0, b), batch.hi[j], batch.lo[j], d));
          }
        },
      ),
      { numRuns: 200 },
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

// Below BATCH.batchFrom queries a search goes photo by photo; from it on, table by table (in bucket
// order from BATCH.sortFrom on), and photo by photo again when a batch finds more than
// BATCH.maxHits matches of hashes.
describe.each([
  { how: 'photo by photo', batchFrom: Infinity, sortFrom: Infinity, maxHits: BATCH.maxHits },
  { how: 'table by table', batchFrom: 0, sortFrom: Infinity, maxHits: BATCH.maxHits },
  { how: 'table by table in bucket order', batchFrom: 0, sortFrom: 0, maxHits: BATCH.maxHits },
  { how: 'table by table, falling back to photo by photo', batchFrom: 0, sortFrom: 0, maxHits: 1 },
])('findPairs, $how', ({ batchFrom, sortFrom, maxHits }) => {
  const saved = { ...BATCH };
  beforeEach(() => Object.assign(BATCH, { batchFrom, sortFrom, maxHits }));
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
