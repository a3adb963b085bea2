/**
 * The library's hashes as one duplicate scan handed them over, page by page, kept in this worker
 * process for that job attempt (one scan at a time: a new one replaces the old). The index over
 * them is built once, on the first compare step. Main never relies on it being here: a compare
 * step that finds it missing (the process was replaced) says so, and main hands the pages over again.
 */
import { HASHES_PER_PHOTO, MATCHED_BY, blobInto } from '../../shared/duplicates/hash-set';
import { MAX_PAIRS_PER_STEP, type HashPage, type PackedPhotos } from '../../shared/jobs/outputs/duplicate-scan';
import { PhotoIndex, queriesOf } from './find-pairs';

const WORDS = 2 * HASHES_PER_PHOTO;
const BLOB_BYTES = 8 * HASHES_PER_PHOTO;

interface Held {
  key: string;
  pages: HashPage[];
  count: number;
  built?: { index: PhotoIndex; unscanned: Uint8Array; byId: Map<number, number>; pruneFrom: number };
}

let held: Held | null = null;

/** Keeps a page for job attempt `key`; the first page of an attempt starts afresh. Returns how many photos are held. */
export function holdPage(key: string, page: HashPage, first: boolean): number {
  if (first || held?.key !== key) held = { key, pages: [], count: 0 };
  held.pages.push(page);
  held.count += page.ids.length;
  held.built = undefined;
  return held.count;
}

/** The index over what attempt `key` handed over, if this process holds all `count` photos of it. */
function heldIndex(key: string, count: number) {
  if (!held || held.key !== key || held.count !== count) return null;
  if (!held.built) {
    const ids = new Int32Array(held.count);
    const words = new Uint32Array(held.count * WORDS);
    const unscanned = new Uint8Array(held.count);
    let n = 0;
    for (const page of held.pages) {
      for (let i = 0; i < page.ids.length; i++) {
        const blob = page.blobs.subarray(i * BLOB_BYTES, (i + 1) * BLOB_BYTES);
        if (!blobInto(blob, words, n * WORDS)) continue;
        ids[n] = page.ids[i];
        unscanned[n++] = page.unscanned[i];
      }
    }
    const set: PackedPhotos = { ids: ids.subarray(0, n), words: words.subarray(0, n * WORDS) };
    // Main hands the pages over in id order. Then an unscanned photo after the last scanned one
    // accepts only the photos before it, and its search need not look past itself.
    const ascending = set.ids.every((id, p) => p === 0 || set.ids[p - 1] < id);
    const pruneFrom = ascending ? unscanned.subarray(0, n).lastIndexOf(0) + 1 : n;
    held.built = { index: new PhotoIndex(set), unscanned, byId: new Map(Array.from(set.ids, (id, i) => [id, i])), pruneFrom };
  }
  return held.built;
}

/** Lets go of what a finished scan handed over. */
export function release(key: string): void {
  if (held?.key === key) held = null;
}

/**
 * Searches the held copy with its photos not scanned yet whose ids lie in [fromId, toId]. Each
 * pair is kept once: with a scanned photo, or with an unscanned one that comes before it (that one
 * was searched in an earlier chunk, or earlier in this one, and skipped this pair then).
 * `lost`: this process does not hold the copy main handed over.
 */
export function compareHeld(
  key: string,
  q: { fromId: number; toId: number; holds: number; maxDistance: number; maxPerPhoto: number },
  ctl: { signal: AbortSignal; progress(fraction: number): void },
): { lost: boolean; queried: number; pairs: Int32Array<ArrayBuffer>; truncated: boolean } {
  const built = heldIndex(key, q.holds);
  if (!built) return { lost: true, queried: 0, pairs: new Int32Array(0), truncated: false };
  const { index, unscanned, pruneFrom } = built;
  const { ids } = index.set;
  const chunk: number[] = [];
  for (let p = 0; p < ids.length; p++) if (unscanned[p] && ids[p] >= q.fromId && ids[p] <= q.toId) chunk.push(p);
  const queries = queriesOf(index.set, (p) => (p >= pruneFrom ? p : ids.length), chunk);
  const accept = (j: number, other: number) => !unscanned[other] || ids[other] < ids[chunk[j]];
  const found: number[] = [];
  index.search(queries, q.maxDistance, q.maxPerPhoto, accept, ctl).forEach((matches, j) => {
    const id = ids[chunk[j]];
    for (const m of matches) {
      const other = ids[m.other];
      found.push(Math.min(id, other), Math.max(id, other), m.distance, MATCHED_BY.indexOf(m.by));
    }
  });
  const queried = chunk.length;
  const truncated = found.length > 4 * MAX_PAIRS_PER_STEP;
  return { lost: false, queried, pairs: Int32Array.from(truncated ? found.slice(0, 4 * MAX_PAIRS_PER_STEP) : found), truncated };
}
