/**
 * The library's hashes as this worker process holds them between duplicate scans (one library at
 * a time: another library's copy replaces it). A scan first asks which copy is here (`probe`);
 * main then sends what changed since it (`sync`), or, to a worker that holds none (a new or
 * restarted process), the whole library page by page (`holdPage`); photos removed from the
 * library since leave the copy by `prune`. Main never relies on the copy
 * being here: a step that finds it missing or different says so, and main hands the pages over.
 *
 * A copy not used for `COPY_IDLE.ms` is let go (51 MB for 100,000 photos, in every worker that
 * ever scanned): scans come in bursts after imports, and a later one hands the library over again
 * (0.7 s for 100,000). Keeping it only in the worker that scanned last would need main to track
 * workers, which it deliberately does not.
 */
import { MAX_PAIRS_PER_STEP, type ChangedHashes, type HashPage } from '../../shared/jobs/outputs/duplicate-scan';
import { LibraryCopy } from './library-copy';

/** How long an unused copy is kept; `schedule` runs `drop` after `ms` and returns a cancel (tests pass their own). */
export const COPY_IDLE = {
  ms: 10 * 60_000,
  schedule(drop: () => void, ms: number): () => void {
    const timer = setTimeout(drop, ms);
    // The copy never keeps the process alive.
    timer.unref();
    return () => clearTimeout(timer);
  },
};
let cancelDrop: (() => void) | null = null;

/** The copy (or the pages being handed over) was just used: it is kept another COPY_IDLE.ms. */
function used(): void {
  cancelDrop?.();
  cancelDrop = COPY_IDLE.schedule(forget, COPY_IDLE.ms);
}

/** Pages of a copy being handed over. */
let loading: { library: string; base: number; pages: HashPage[]; count: number } | null = null;
let copy: LibraryCopy | null = null;

/** The time this process's copy of `library` holds it as of, or null. */
export function probe(library: string): number | null {
  return copy?.library === library ? copy.base : null;
}

/**
 * Keeps a page of the copy of `library` as of `base`; the first page starts afresh (and lets go
 * of the copy held so far), the last makes it the copy. Returns how many photos are held.
 */
export function holdPage(library: string, base: number, page: HashPage, first: boolean, last: boolean): number {
  if (first || loading?.library !== library || loading.base !== base) {
    copy = null;
    loading = { library, base, pages: [], count: 0 };
  }
  used();
  loading.pages.push(page);
  loading.count += page.ids.length;
  const count = loading.count;
  if (last) {
    copy = new LibraryCopy(library, base, loading.pages);
    loading = null;
  }
  return count;
}

/**
 * Brings the copy of `library` as of `base` up to `startedAt` with what changed since; returns how
 * many photos it holds then (more than the library when photos were removed: see `prune`).
 * `lost`: this process holds no such copy, and main hands the whole library over.
 */
export function sync(
  library: string,
  base: number,
  update: { startedAt: number; changed: ChangedHashes; unscanned: Int32Array },
): { lost: boolean; holds: number } {
  if (!copy || copy.library !== library || copy.base !== base) return { lost: true, holds: 0 };
  used();
  copy.update(update.changed, update.unscanned, update.startedAt);
  return { lost: false, holds: copy.count };
}

/** Lets the copy of `library` as of `base` go of every photo not in `ids` (removed from the library). */
export function prune(library: string, base: number, ids: Int32Array): { lost: boolean; holds: number } {
  if (!copy || copy.library !== library || copy.base !== base) return { lost: true, holds: 0 };
  used();
  copy.keepOnly(ids);
  return { lost: false, holds: copy.count };
}

/**
 * Searches the copy with its photos not scanned yet whose ids lie in [fromId, toId] (see
 * LibraryCopy.search). `lost`: this process does not hold the copy main handed over.
 */
export function compareHeld(
  library: string,
  q: { fromId: number; toId: number; holds: number; base: number; maxDistance: number; maxPerPhoto: number },
  ctl: { signal: AbortSignal; progress(fraction: number): void },
): { lost: boolean; queried: number; pairs: Int32Array<ArrayBuffer>; truncated: boolean } {
  if (!copy || copy.library !== library || copy.base !== q.base || copy.count !== q.holds) {
    return { lost: true, queried: 0, pairs: new Int32Array(0), truncated: false };
  }
  used();
  const { pairs, queried } = copy.search(q, ctl);
  const truncated = pairs.length > 4 * MAX_PAIRS_PER_STEP;
  return { lost: false, queried, pairs: Int32Array.from(truncated ? pairs.slice(0, 4 * MAX_PAIRS_PER_STEP) : pairs), truncated };
}

/** Bytes the copy holds (for the benchmark's memory figure), or 0. */
export function heldBytes(): number {
  return copy?.bytes() ?? 0;
}

/** Lets go of the copy (after COPY_IDLE.ms unused; tests). */
export function forget(): void {
  cancelDrop?.();
  cancelDrop = null;
  copy = null;
  loading = null;
}
