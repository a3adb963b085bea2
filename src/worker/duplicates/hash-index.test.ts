import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HASHES_PER_PHOTO, photoDistance, popcount32 } from '../../shared/duplicates/hash-set';
import { HashIndex } from './hash-index';
import { findPairs, type PackedPhotos } from './find-pairs';

const WORDS = 2 * HASHES_PER_PHOTO;
const word = fc.integer({ min: 0, max: 0xffffffff });

/** Random hashes, many of them a few bits away from an earlier one (near neighbours are what matters). */
const hashes = (max: number) =>
  fc
    .array(fc.record({ hi: word, lo: word, near: fc.nat(), flips: fc.array(fc.nat({ max: 63 }), { maxLength: 12 }) }), {
      minLength: 1,
      maxLength: max,
    })
    .map((rows) => {
      const hi = new Uint32Array(rows.length);
      const lo = new Uint32Array(rows.length);
      rows.forEach((r, i) => {
        let [h, l] = i > 0 && r.near % 3 !== 0 ? [hi[r.near % i], lo[r.near % i]] : [r.hi, r.lo];
        for (const bit of r.flips) {
          if (bit < 32) h = (h ^ (1 << bit)) >>> 0;
          else l = (l ^ (1 << (bit - 32))) >>> 0;
        }
        hi[i] = h;
        lo[i] = l;
      });
      return { hi, lo };
    });

const bruteWithin = (hi: Uint32Array, lo: Uint32Array, qhi: number, qlo: number, d: number) => {
  const out: string[] = [];
  for (let e = 0; e < hi.length; e++) {
    const dist = popcount32((hi[e] ^ qhi) >>> 0) + popcount32((lo[e] ^ qlo) >>> 0);
    if (dist <= d) out.push(`${e}:${dist}`);
  }
  return out.sort();
};

describe('HashIndex (multi-index hashing)', () => {
  it('finds exactly what a brute-force comparison finds, at every distance', () => {
    fc.assert(
      fc.property(hashes(300), fc.integer({ min: 0, max: 32 }), fc.nat(), ({ hi, lo }, d, pick) => {
        const index = new HashIndex(hi, lo);
        // Query with stored hashes (so there are hits) and with a bit-flipped one.
        const q = pick % hi.length;
        for (const [qhi, qlo] of [
          [hi[q], lo[q]],
          [(hi[q] ^ 0x00010001) >>> 0, (lo[q] ^ 0x80000000) >>> 0],
        ]) {
          const found: string[] = [];
          index.within(qhi, qlo, d, (e, dist) => found.push(`${e}:${dist}`));
          expect(found.sort()).toEqual(bruteWithin(hi, lo, qhi, qlo, d));
        }
      }),
      { numRuns: 300 },
    );
  });
});

/** Photos whose seven hashes are random, or copies of an earlier photo's with a few bits flipped in each. */
const photos = (max: number, firstId: number) =>
  fc
    .array(
      fc.tuple(
        hashes(HASHES_PER_PHOTO).filter((h) => h.hi.length === HASHES_PER_PHOTO),
        fc.nat(),
        fc.nat({ max: 4 }),
      ),
      {
        maxLength: max,
      },
    )
    .map((rows): PackedPhotos => {
      const words = new Uint32Array(rows.length * WORDS);
      rows.forEach(([h, near, flips], p) => {
        const from = p > 0 && near % 2 === 0 ? near % p : -1;
        for (let k = 0; k < HASHES_PER_PHOTO; k++) {
          const [hi, lo] = from >= 0 ? [words[from * WORDS + 2 * k], words[from * WORDS + 2 * k + 1]] : [h.hi[k], h.lo[k]];
          // Flip `flips` low bits of each hash of a copy (its kinds drift together, as a real copy's do).
          words[p * WORDS + 2 * k] = hi;
          words[p * WORDS + 2 * k + 1] = from >= 0 ? (lo ^ ((1 << flips) - 1)) >>> 0 : lo;
        }
      });
      return { ids: Int32Array.from(rows, (_, i) => firstId + i), words };
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

describe('findPairs', () => {
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
