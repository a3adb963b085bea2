/**
 * Main's half of `duplicate_scan`. The scan runs in checkpointed steps, each a short read here, the
 * work in a worker, and a short write here:
 *
 *  1. Re-hash: photos hashed by an older method (or before duplicate hashes existed) are hashed
 *     again from their thumbnails, `rehash` per step.
 *  2. Probe: the worker says which copy of the library's hashes it kept from an earlier scan (as
 *     of which time), if any (src/worker/duplicates/scan-cache.ts).
 *  3. Sync: a worker with a copy is sent the rows stamped since it (hashes new, changed or dropped:
 *     an import, a metadata rerun, a re-hash) and the photos not scanned yet. Photos removed from
 *     the library leave no row to send: the copy then holds more photos than the library, and is
 *     sent the ids of every photo the library holds to keep only those (prune: 4 bytes a photo).
 *     Or load: a worker without a copy (a new or restarted process, or a copy of another library)
 *     is handed the library's hashes, `page` photos per step (56 bytes each, as stored: 560 KB a
 *     page), flagged scanned or not. It files them in its index once.
 *  4. Compare: photos not scanned yet, `chunk` per step in id order, are searched against the
 *     copy; each pair is kept once (with a scanned photo, or with an unscanned one before it),
 *     and the chunk is marked scanned. A scan after an import thus sends and compares only the new
 *     photos — never the whole library again — and a full scan compares every pair once.
 *
 * Why the worker is asked rather than told: a job may land on any worker of the pool, each may
 * hold a copy as of a different time, and any may have been restarted. Main remembers nothing
 * about them; the probe costs one short step. Within one attempt the steps stay on one worker.
 *
 * A photo whose hashes change after loading or syncing began is not marked scanned and its new
 * pairs are not kept (both checked by time): it is left for the next scan, which the scheduler
 * starts, and which sends it to the copy.
 */
import path from 'node:path';
import { MATCHED_BY } from '../../shared/duplicates/hash-set';
import type { PayloadOf } from '../../shared/jobs/define';
import type { DuplicateScanInput } from '../../shared/jobs/outputs/duplicate-scan';
import type { DuplicateScanJobType } from '../../shared/jobs/types/duplicate-scan';
import type { Continuation, JobContext, MainHalf } from '../jobs/registry';
import type { DuplicateStore } from './duplicate-store';
import type { PhotoHashStore } from './photo-hash-store';

/** How much one step reads or writes (tests make them small to take many steps). */
export interface StepSizes {
  rehash: number;
  page: number;
  chunk: number;
}
export const STEP_SIZES: StepSizes = { rehash: 100, page: 10_000, chunk: 5_000 };
/**
 * A sync sends the rows stamped since this long before the copy's time: a row another process
 * (a headless runner) stamped just before it, but committed only after the copy's read, would
 * otherwise never reach the copy. Resending a row is harmless.
 */
export const STAMP_MARGIN_MS = 60_000;
/** A photo is kept to its nearest matches (a run of near-blank scans must not flood the review). */
export const MAX_MATCHES_PER_PHOTO = 50;

type Payload = PayloadOf<DuplicateScanJobType>;
type Cursor = NonNullable<Payload['cursor']>;

const fresh = (): Cursor => ({
  phase: 'rehash',
  afterId: 0,
  startedAt: 0,
  attempt: 0,
  holds: 0,
  rehashed: 0,
  compared: 0,
  pairs: 0,
  total: 0,
});

export interface ScanJobDeps {
  hashes: PhotoHashStore;
  duplicates: DuplicateStore;
  libraryDir: string;
  onPhotosChanged(ids: number[]): void;
}

export function duplicateScanJob(deps: ScanJobDeps, sizes: StepSizes = STEP_SIZES): MainHalf<DuplicateScanJobType> {
  const { hashes, duplicates } = deps;

  const library = hashes.copyName();

  function page(d: number, after: number, first: boolean, startedAt: number, total: number): DuplicateScanInput {
    const { page, lastId } = hashes.page(d, after, sizes.page);
    const done = lastId === null || page.ids.length < sizes.page;
    return {
      kind: 'load',
      library,
      plan: { phase: 'load', first, lastId, done, count: page.ids.length, startedAt, total },
      page,
    };
  }

  /** The first page of a new copy of the library. */
  async function firstPage(d: number): Promise<DuplicateScanInput> {
    const total = hashes.countUnscanned(d);
    // The start and the page's read in one turn of the event loop: no hash is written between them.
    return page(d, 0, true, await hashes.scanStartTime(), total);
  }

  /** Asks the worker which copy it holds (nothing to compare: nothing to ask). */
  function probe(d: number): DuplicateScanInput {
    if (!hashes.countUnscanned(d)) return { kind: 'idle', plan: { phase: 'idle' } };
    return { kind: 'probe', plan: { phase: 'probe' }, library };
  }

  /** What changed since the worker's copy. */
  async function sync(d: number, base: number): Promise<DuplicateScanInput> {
    const startedAt = await hashes.scanStartTime();
    const { changed, count, unscanned } = hashes.changedSince(base - STAMP_MARGIN_MS, d);
    const plan = { phase: 'sync' as const, startedAt, count, total: unscanned.length };
    return { kind: 'sync', plan, library, base, startedAt, changed, unscanned };
  }

  /** The photos the library holds, for a copy that holds more (photos were removed since it was made). */
  function prune(c: Cursor): DuplicateScanInput {
    const ids = hashes.usableIds();
    const plan = { phase: 'prune' as const, startedAt: c.startedAt, count: ids.length, total: c.total };
    return { kind: 'prune', plan, library, base: c.startedAt, ids };
  }

  function compare(d: number, c: Cursor): DuplicateScanInput {
    const ids = hashes.unscannedIds(d, c.afterId, sizes.chunk + 1);
    if (!ids.length) return { kind: 'idle', plan: { phase: 'idle' } };
    const chunk = ids.slice(0, sizes.chunk);
    const [fromId, toId] = [chunk[0], chunk[chunk.length - 1]];
    return {
      kind: 'compare',
      library,
      plan: { phase: 'compare', fromId, toId, startedAt: c.startedAt, last: ids.length <= sizes.chunk },
      maxDistance: d,
      maxPerPhoto: MAX_MATCHES_PER_PHOTO,
      fromId,
      toId,
      holds: c.holds,
      base: c.startedAt,
    };
  }

  function load({ payload, attempt }: JobContext<Payload>): DuplicateScanInput | Promise<DuplicateScanInput> {
    const d = payload.maxDistance;
    const c = payload.cursor ?? fresh();
    if (c.phase === 'rehash') {
      const rows = hashes.needingRehash(c.afterId, sizes.rehash);
      if (!rows.length) return probe(d);
      return {
        kind: 'rehash',
        plan: { phase: 'rehash', lastId: rows[rows.length - 1].id },
        photos: rows.map((r) => ({ id: r.id, thumbnailPath: path.join(deps.libraryDir, r.thumbnail) })),
      };
    }
    // Another attempt's worker held the copy: ask this one what it holds.
    if (attempt !== c.attempt) return probe(d);
    if (c.phase === 'sync') return sync(d, c.copyBase ?? 0);
    if (c.phase === 'prune') return prune(c);
    if (c.phase === 'load') return c.afterId === 0 ? firstPage(d) : page(d, c.afterId, false, c.startedAt, c.total);
    return compare(d, c);
  }

  function apply(out: Parameters<MainHalf<DuplicateScanJobType>['apply']>[0], job: JobContext<Payload>) {
    const d = job.payload.maxDistance;
    const c = job.payload.cursor ?? fresh();
    const next = (cursor: Cursor, summary: string): Continuation<Payload> => ({
      summary,
      progress: cursor.phase === 'compare' && cursor.total ? Math.min(0.99, cursor.compared / cursor.total) : 0,
      continueWith: { maxDistance: d, cursor },
    });
    const plan = out.plan;

    if (out.kind === 'idle') return finalSummary(c.rehashed, c.compared, c.pairs);
    if (out.kind === 'rehash' && plan.phase === 'rehash') {
      for (const h of out.hashed) hashes.recordRehash(h.id, h.full, h.hashes);
      const rehashed = c.rehashed + out.hashed.length;
      return next(
        { ...c, afterId: plan.lastId ?? c.afterId, rehashed },
        `Re-hashed ${count(rehashed)} photos hashed by an older method`,
      );
    }
    const loadAgain = { ...c, phase: 'load' as const, afterId: 0, attempt: job.attempt };
    if (out.kind === 'probe' && plan.phase === 'probe') {
      if (out.base === null) return next(loadAgain, 'Handing the library to the worker');
      return next({ ...c, phase: 'sync', copyBase: out.base, attempt: job.attempt }, 'Updating the worker’s copy of the library');
    }
    if ((out.kind === 'sync' && plan.phase === 'sync') || (out.kind === 'prune' && plan.phase === 'prune')) {
      const copy = { startedAt: plan.startedAt, holds: out.holds, total: plan.total, afterId: 0, attempt: job.attempt };
      if (out.lost || out.holds < plan.count) return next(loadAgain, 'Handing the library to the worker again');
      // More than the library: photos were removed since the copy was made (a pruned copy that still
      // holds more is loaded anew).
      if (out.holds > plan.count) {
        if (out.kind === 'prune') return next(loadAgain, 'Handing the library to the worker again');
        return next({ ...c, ...copy, phase: 'prune' }, 'Taking removed photos out of the worker’s copy');
      }
      return next({ ...c, ...copy, phase: 'compare' }, `Comparing ${count(plan.total)} photos`);
    }
    if (out.kind === 'load' && plan.phase === 'load') {
      const holds = (plan.first ? 0 : c.holds) + plan.count;
      const copy = { startedAt: plan.startedAt, attempt: job.attempt, holds, total: plan.total };
      if (out.holds !== holds) return next(loadAgain, 'Handing the library to the worker again');
      if (plan.done) return next({ ...c, ...copy, phase: 'compare', afterId: 0 }, `Comparing ${count(plan.total)} photos`);
      return next(
        { ...c, ...copy, phase: 'load', afterId: plan.lastId ?? c.afterId },
        `Handed ${count(holds)} photos to the worker`,
      );
    }
    if (out.kind === 'compare' && plan.phase === 'compare') {
      if (out.lost) return next(loadAgain, 'The worker lost its copy; handing it the library again');
      const found = keepPairs(out.pairs, plan.startedAt);
      hashes.markScanned(plan.fromId, plan.toId, d, plan.startedAt);
      const progress = { compared: c.compared + out.queried, pairs: c.pairs + found };
      if (plan.last) return finalSummary(c.rehashed, progress.compared, progress.pairs);
      return next({ ...c, ...progress, afterId: plan.toId }, describe(progress.compared, progress.pairs));
    }
    throw new Error(`a ${out.kind} step came back with a ${plan.phase} plan`);
  }

  /** Stores the pairs a step found (a pair whose photo got new hashes meanwhile is left out); how many are new. */
  function keepPairs(p: Int32Array, loadedAt: number): number {
    const now = Date.now();
    const changed = new Set<number>();
    let found = 0;
    for (let i = 0; i + 3 < p.length; i += 4) {
      const by = MATCHED_BY[p[i + 3]];
      if (!by || !(p[i] > 0 && p[i] < p[i + 1]) || !(p[i + 2] >= 0 && p[i + 2] <= 64)) continue;
      if (duplicates.found(p[i], p[i + 1], p[i + 2], by, loadedAt, now)) {
        found++;
        changed.add(p[i]).add(p[i + 1]);
      }
    }
    if (changed.size) deps.onPhotosChanged([...changed]);
    return found;
  }

  return { load, apply };
}

const count = (n: number) => n.toLocaleString('en-US');

function describe(compared: number, pairs: number): string {
  return `${count(compared)} photos compared, ${count(pairs)} new pairs`;
}

function finalSummary(rehashed: number, compared: number, pairs: number): string {
  const parts = [
    rehashed ? `${count(rehashed)} re-hashed` : null,
    `${count(compared)} photos compared`,
    pairs ? `${count(pairs)} new pairs to review` : 'no new duplicates',
  ];
  return parts.filter(Boolean).join('; ');
}
