import fc from 'fast-check';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { HASHES_PER_PHOTO, MATCHED_BY, hashesToBlob, hashesToHex, photoDistance } from '../../shared/duplicates/hash-set';
import type { ChangedHashes, PackedPhotos } from '../../shared/jobs/outputs/duplicate-scan';
import { photos } from '../../../test/support/random-hashes';
import { COPY_IDLE, compareHeld, forget, holdPage, probe, prune, sync } from './scan-cache';
import { BATCH } from './find-pairs';
import { REFILE } from './library-copy';

const WORDS = 2 * HASHES_PER_PHOTO;
const BLOB = 8 * HASHES_PER_PHOTO;

/** A page of photos whose seven hashes share one high word and have `base` as their low word. */
function page(ids: number[], base: number[], unscanned: number[]) {
  const blobs = new Uint8Array(ids.length * BLOB);
  ids.forEach((_, i) => {
    const words = new Uint32Array(WORDS);
    for (let k = 0; k < HASHES_PER_PHOTO; k++) [words[2 * k], words[2 * k + 1]] = [0x9e3779b9, base[i]];
    blobs.set(hashesToBlob(hashesToHex(words)), i * BLOB);
  });
  return { ids: Int32Array.from(ids), blobs, unscanned: Uint8Array.from(unscanned) };
}

/** Rows as `changedSince` reads them: a photo's new hashes (words at `at` of `set`), or null when it is no longer usable. */
function changes(rows: { id: number; from: PackedPhotos | null; at: number }[]): ChangedHashes {
  const blobs = new Uint8Array(rows.length * BLOB);
  rows.forEach((r, i) => r.from && blobs.set(hashesToBlob(hashesToHex(r.from.words, r.at * WORDS)), i * BLOB));
  return {
    ids: Int32Array.from(rows, (r) => r.id),
    blobs,
    usable: Uint8Array.from(rows, (r) => (r.from ? 1 : 0)),
  };
}

const ctl = { signal: new AbortController().signal, progress: () => {} };
const q = { maxDistance: 6, maxPerPhoto: 10 };
const asStrings = (pairs: Int32Array) => {
  const out: string[] = [];
  for (let i = 0; i < pairs.length; i += 4) out.push(`${pairs[i]}-${pairs[i + 1]}:${pairs[i + 2]}:${MATCHED_BY[pairs[i + 3]]}`);
  return out.sort();
};

afterEach(forget);

describe('the worker’s copy of the library', () => {
  it('pairs each unscanned photo with scanned ones and earlier unscanned ones, each pair once', () => {
    holdPage('L1', 100, page([1, 2], [0b0, 0b1], [0, 1]), true, false);
    expect(holdPage('L1', 100, page([3, 4], [0b11, 0xffff0000], [1, 0]), false, true)).toBe(4);
    const r = compareHeld('L1', { ...q, fromId: 1, toId: 4, holds: 4, base: 100 }, ctl);
    expect(r).toMatchObject({ lost: false, queried: 2, truncated: false });
    // 1 (scanned) ~ 2, 1 ~ 3, 2 ~ 3; 4 is far from all; 1 and 4 are both scanned and not compared.
    expect(Array.from(r.pairs)).toEqual([1, 2, 1, 0, 2, 3, 1, 0, 1, 3, 2, 0]);
  });

  it('keeps the copy between scans and says which it holds; another library’s, another time or another count is lost', () => {
    expect(probe('L2')).toBeNull();
    holdPage('L2', 100, page([1], [0], [1]), true, true);
    expect(probe('L2')).toBe(100);
    expect(probe('other library')).toBeNull();
    expect(compareHeld('L3', { ...q, fromId: 1, toId: 1, holds: 1, base: 100 }, ctl).lost).toBe(true);
    expect(compareHeld('L2', { ...q, fromId: 1, toId: 1, holds: 1, base: 99 }, ctl).lost).toBe(true);
    expect(compareHeld('L2', { ...q, fromId: 1, toId: 1, holds: 2, base: 100 }, ctl).lost).toBe(true);
    expect(compareHeld('L2', { ...q, fromId: 1, toId: 1, holds: 1, base: 100 }, ctl).lost).toBe(false);
    // An update for a copy it does not hold is refused and changes nothing.
    const none = { startedAt: 200, changed: changes([]), unscanned: new Int32Array(0) };
    expect(sync('L2', 99, none)).toEqual({ lost: true, holds: 0 });
    expect(probe('L2')).toBe(100);
    // An update brings it to its new time.
    expect(sync('L2', 100, none)).toEqual({ lost: false, holds: 1 });
    expect(probe('L2')).toBe(200);
    // A new copy's first page lets go of the old one at once.
    holdPage('L2', 300, page([5], [0], [1]), true, false);
    expect(probe('L2')).toBeNull();
  });

  it('lets go of a copy unused for COPY_IDLE.ms; every use keeps it that long again', () => {
    // The clock is the test's: it runs the pending drop when it says the time has passed.
    const pending: { drop: () => void; ms: number; cancelled: boolean }[] = [];
    const saved = { ...COPY_IDLE };
    COPY_IDLE.schedule = (drop, ms) => {
      const timer = { drop, ms, cancelled: false };
      pending.push(timer);
      return () => void (timer.cancelled = true);
    };
    onTestFinished(() => void Object.assign(COPY_IDLE, saved));
    const elapse = () => pending.filter((t) => !t.cancelled).forEach((t) => t.drop());
    holdPage('L5', 100, page([1, 2], [0, 1], [0, 1]), true, true);
    expect(pending.map((t) => t.ms)).toEqual([COPY_IDLE.ms]);
    // A compare re-arms it (the earlier drop is cancelled), and so do a sync and a prune.
    compareHeld('L5', { ...q, fromId: 1, toId: 2, holds: 2, base: 100 }, ctl);
    sync('L5', 100, { startedAt: 200, changed: changes([]), unscanned: new Int32Array(0) });
    prune('L5', 200, Int32Array.of(1, 2));
    expect(pending.map((t) => t.cancelled)).toEqual([true, true, true, false]);
    // A probe is not a use: main asks, and may hand the scan to another worker.
    probe('L5');
    expect(pending).toHaveLength(4);
    elapse();
    expect(probe('L5')).toBeNull();
    expect(compareHeld('L5', { ...q, fromId: 1, toId: 2, holds: 2, base: 200 }, ctl).lost).toBe(true);
  });

  it('keeps only the photos the library still holds when told them (photos removed leave no changed row)', () => {
    holdPage('L4', 100, page([1, 2, 3], [0, 1, 3], [0, 0, 0]), true, true);
    // Photo 2 was removed: its row is gone, so nothing says so but the count.
    expect(sync('L4', 100, { startedAt: 200, changed: changes([]), unscanned: Int32Array.of(3) })).toEqual({
      lost: false,
      holds: 3,
    });
    expect(prune('L4', 100, Int32Array.of(1, 3))).toEqual({ lost: true, holds: 0 });
    expect(prune('L4', 200, Int32Array.of(1, 3))).toEqual({ lost: false, holds: 2 });
    // 3 is compared with 1 alone (2 would have been nearer).
    const r = compareHeld('L4', { ...q, fromId: 1, toId: 3, holds: 2, base: 200 }, ctl);
    expect(Array.from(r.pairs)).toEqual([1, 3, 2, 0]);
  });

  it.each([
    ['photo by photo', Infinity, false],
    ['table by table', 0, false],
    ['photo by photo, filed again after the update', Infinity, true],
  ])(
    'after any update (and prune) finds what brute force finds between unscanned photos and all others (%s)',
    (_, batchFrom, refile) => {
      const saved = { ...BATCH, ...REFILE };
      BATCH.batchFrom = batchFrom;
      if (refile) [REFILE.min, REFILE.share] = [0, 0];
      onTestFinished(() => void ([BATCH.batchFrom, REFILE.min, REFILE.share] = [saved.batchFrom, saved.min, saved.share]));
      const fate = fc.constantFrom('kept', 'changed', 'dropped', 'removed', 'added', 'absent');
      fc.assert(
        fc.property(
          photos(60, 1),
          fc.array(fc.tuple(fate, fc.boolean(), fc.boolean()), { minLength: 60, maxLength: 60 }),
          fc.integer({ min: 0, max: 12 }),
          (set, fates, d) => {
            const n = set.ids.length;
            // The copy as first loaded: every photo but those added later (or never there), in two pages.
            const first = Array.from({ length: n }, (_, p) => p).filter((p) => !['added', 'absent'].includes(fates[p][0]));
            const blobsOf = (ps: number[]) => {
              const b = new Uint8Array(ps.length * BLOB);
              ps.forEach((p, i) => b.set(hashesToBlob(hashesToHex(set.words, p * WORDS)), i * BLOB));
              return b;
            };
            const half = first.length >> 1;
            const part = (ps: number[]) => ({
              ids: Int32Array.from(ps, (p) => set.ids[p]),
              blobs: blobsOf(ps),
              unscanned: Uint8Array.from(ps, (p) => (fates[p][1] ? 1 : 0)),
            });
            holdPage('P', 100, part(first.slice(0, half)), true, false);
            expect(holdPage('P', 100, part(first.slice(half)), false, true)).toBe(first.length);

            // Then the library changes: a photo takes another's hashes, loses its own, or is added.
            const now = new Uint32Array(set.words);
            const rows: { id: number; from: PackedPhotos | null; at: number }[] = [];
            const present: number[] = [];
            for (let p = 0; p < n; p++) {
              const [what] = fates[p];
              if (what === 'changed') {
                const like = (p + 7) % n;
                now.set(set.words.subarray(like * WORDS, (like + 1) * WORDS), p * WORDS);
                rows.push({ id: set.ids[p], from: set, at: like });
              }
              if (what === 'dropped') rows.push({ id: set.ids[p], from: null, at: 0 });
              if (what === 'added') rows.push({ id: set.ids[p], from: set, at: p });
              // A removed photo's row is gone: nothing about it changes, it is only missing from the library.
              if (!['dropped', 'removed', 'absent'].includes(what)) present.push(p);
            }
            // Which are scanned now is anyone's guess (a scan at a larger distance, a cancelled one).
            const unscanned = present.filter((p) => fates[p][2]);
            const update = {
              startedAt: 200,
              changed: changes(rows),
              unscanned: Int32Array.from(unscanned, (p) => set.ids[p]),
            };
            const removed = fates.slice(0, n).filter(([what]) => what === 'removed').length;
            expect(sync('P', 100, update)).toEqual({ lost: false, holds: present.length + removed });
            if (removed)
              expect(
                prune(
                  'P',
                  200,
                  Int32Array.from(present, (p) => set.ids[p]),
                ),
              ).toEqual({ lost: false, holds: present.length });

            // Compared in two chunks, as main does.
            const found: string[] = [];
            const mid = set.ids[n >> 1];
            for (const [fromId, toId] of [
              [1, mid],
              [mid + 1, set.ids[n - 1]],
            ]) {
              const r = compareHeld(
                'P',
                { maxDistance: d, maxPerPhoto: 1000, fromId, toId, holds: present.length, base: 200 },
                ctl,
              );
              expect(r.lost).toBe(false);
              found.push(...asStrings(r.pairs));
            }
            const isUnscanned = new Set(unscanned);
            const expected: string[] = [];
            for (const [i, a] of present.entries()) {
              for (const b of present.slice(i + 1)) {
                if (!isUnscanned.has(a) && !isUnscanned.has(b)) continue;
                const m = photoDistance(now, a * WORDS, now, b * WORDS);
                if (m.distance <= d) expected.push(`${set.ids[a]}-${set.ids[b]}:${m.distance}:${m.by}`);
              }
            }
            expect(found.sort()).toEqual(expected.sort());
          },
        ),
        // Table by table costs a pass over each table's 65,536 buckets per search: fewer runs.
        { numRuns: batchFrom === 0 ? 20 : 100 },
      );
    },
  );
});
