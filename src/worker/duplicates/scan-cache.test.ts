import fc from 'fast-check';
import { describe, expect, it, onTestFinished } from 'vitest';
import { HASHES_PER_PHOTO, MATCHED_BY, hashesToBlob, hashesToHex, photoDistance } from '../../shared/duplicates/hash-set';
import { photos } from '../../../test/support/random-hashes';
import { compareHeld, holdPage, release } from './scan-cache';
import { BATCH } from './find-pairs';

const WORDS = 2 * HASHES_PER_PHOTO;

/** A page of photos whose seven hashes share one high word and have `base` as their low word. */
function page(ids: number[], base: number[], unscanned: number[]) {
  const blobs = new Uint8Array(ids.length * 8 * HASHES_PER_PHOTO);
  ids.forEach((_, i) => {
    const words = new Uint32Array(WORDS);
    for (let k = 0; k < HASHES_PER_PHOTO; k++) [words[2 * k], words[2 * k + 1]] = [0x9e3779b9, base[i]];
    blobs.set(hashesToBlob(hashesToHex(words)), i * 8 * HASHES_PER_PHOTO);
  });
  return { ids: Int32Array.from(ids), blobs, unscanned: Uint8Array.from(unscanned) };
}

const ctl = { signal: new AbortController().signal, progress: () => {} };
const q = { maxDistance: 6, maxPerPhoto: 10 };

describe('the worker’s copy of the library', () => {
  it('pairs each unscanned photo with scanned ones and earlier unscanned ones, each pair once', () => {
    holdPage('1:1', page([1, 2], [0b0, 0b1], [0, 1]), true);
    expect(holdPage('1:1', page([3, 4], [0b11, 0xffff0000], [1, 0]), false)).toBe(4);
    const r = compareHeld('1:1', { ...q, fromId: 1, toId: 4, holds: 4 }, ctl);
    expect(r).toMatchObject({ lost: false, queried: 2, truncated: false });
    // 1 (scanned) ~ 2, 1 ~ 3, 2 ~ 3; 4 is far from all; 1 and 4 are both scanned and not compared.
    expect(Array.from(r.pairs)).toEqual([1, 2, 1, 0, 2, 3, 1, 0, 1, 3, 2, 0]);
    release('1:1');
  });

  it('says it lost the copy when it holds another attempt’s, or not all of it', () => {
    holdPage('2:1', page([1], [0], [1]), true);
    expect(compareHeld('2:2', { ...q, fromId: 1, toId: 1, holds: 1 }, ctl).lost).toBe(true);
    expect(compareHeld('2:1', { ...q, fromId: 1, toId: 1, holds: 2 }, ctl).lost).toBe(true);
    expect(compareHeld('2:1', { ...q, fromId: 1, toId: 1, holds: 1 }, ctl).lost).toBe(false);
    // A new attempt's first page replaces what the old one handed over.
    holdPage('2:2', page([5], [0], [1]), true);
    expect(compareHeld('2:1', { ...q, fromId: 1, toId: 1, holds: 1 }, ctl).lost).toBe(true);
  });

  it.each([
    ['photo by photo', Infinity],
    ['table by table', 0],
  ])(
    'finds what brute force finds between unscanned photos and all others, whichever photos were scanned (%s)',
    (_, sortedFrom) => {
      const saved = BATCH.sortedFrom;
      BATCH.sortedFrom = sortedFrom;
      onTestFinished(() => void (BATCH.sortedFrom = saved));
      fc.assert(
        fc.property(
          photos(60, 1),
          fc.array(fc.boolean(), { minLength: 60, maxLength: 60 }),
          fc.integer({ min: 0, max: 12 }),
          (set, scanned, d) => {
            const n = set.ids.length;
            const blobs = new Uint8Array(n * 8 * HASHES_PER_PHOTO);
            for (let p = 0; p < n; p++) blobs.set(hashesToBlob(hashesToHex(set.words, p * WORDS)), p * 8 * HASHES_PER_PHOTO);
            const unscanned = Uint8Array.from({ length: n }, (_, p) => (scanned[p] ? 0 : 1));
            // Handed over in two pages, as main does.
            const half = n >> 1;
            const part = (from: number, to: number) => ({
              ids: set.ids.slice(from, to),
              blobs: blobs.slice(from * 8 * HASHES_PER_PHOTO, to * 8 * HASHES_PER_PHOTO),
              unscanned: unscanned.slice(from, to),
            });
            holdPage('3:1', part(0, half), true);
            holdPage('3:1', part(half, n), false);
            const r = compareHeld('3:1', { maxDistance: d, maxPerPhoto: 1000, fromId: 1, toId: n, holds: n }, ctl);
            release('3:1');
            const found: string[] = [];
            for (let i = 0; i < r.pairs.length; i += 4)
              found.push(`${r.pairs[i]}-${r.pairs[i + 1]}:${r.pairs[i + 2]}:${MATCHED_BY[r.pairs[i + 3]]}`);
            const expected: string[] = [];
            for (let a = 0; a < n; a++) {
              for (let b = a + 1; b < n; b++) {
                if (!unscanned[a] && !unscanned[b]) continue;
                const m = photoDistance(set.words, a * WORDS, set.words, b * WORDS);
                if (m.distance <= d) expected.push(`${set.ids[a]}-${set.ids[b]}:${m.distance}:${m.by}`);
              }
            }
            expect(found.sort()).toEqual(expected.sort());
          },
        ),
        { numRuns: 100 },
      );
    },
  );
});
