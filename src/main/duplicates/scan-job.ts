/**
 * Main's half of `duplicate_scan`. The scan runs in checkpointed steps, each a short read here, the
 * work in a worker, and a short write here:
 *
 *  1. Re-hash: photos hashed by an older method (or before duplicate hashes existed) are hashed
 *     again from their thumbnails, REHASH_CHUNK per step.
 *  2. Compare: photos not yet scanned, in id order, CHUNK at a time. A chunk's first step pairs it
 *     with itself; every step pairs it with one BLOCK of scanned photos (the worker files the
 *     larger side in its hash indexes and searches with the smaller). After the last block the
 *     chunk's photos are marked scanned, so the next chunk is compared with them too. Every pair
 *     of scanned photos has thus been compared exactly once, and a scan after an import compares
 *     only the new photos (with each other and with the library) — never the whole library again.
 *
 * What crosses to the worker per step is one chunk and one block of packed hashes (56 bytes a
 * photo: 2.2 MB for 20,000 + 20,000); main never holds the library's hashes at once, and its
 * reads are bounded by the chunk and block sizes.
 *
 * A photo whose hashes change during its chunk (its metadata ran again) is not marked scanned and
 * its pairs from before the change are not kept (both checked by time); photos hashed after their
 * place in the id order was passed are picked up by another pass over the library.
 */
import path from 'node:path';
import { MATCHED_BY } from '../../shared/duplicates/hash-set';
import type { PayloadOf } from '../../shared/jobs/define';
import type { DuplicateScanInput, PackedPhotos } from '../../shared/jobs/outputs/duplicate-scan';
import type { DuplicateScanJobType } from '../../shared/jobs/types/duplicate-scan';
import type { Continuation, MainHalf } from '../jobs/registry';
import type { DuplicateStore } from './duplicate-store';
import type { PhotoHashStore } from './photo-hash-store';

export const REHASH_CHUNK = 100;
export const CHUNK = 20_000;
export const BLOCK = 20_000;
/** A photo is kept to its nearest matches (a run of near-blank scans must not flood the review). */
export const MAX_MATCHES_PER_PHOTO = 50;
/** Passes over the library in one job (photos hashed while a pass ran are taken by the next). */
const MAX_PASSES = 3;

type Payload = PayloadOf<DuplicateScanJobType>;
type Cursor = NonNullable<Payload['cursor']>;

const EMPTY: PackedPhotos = { ids: new Int32Array(0), words: new Uint32Array(0) };
const fresh = (): Cursor => ({ phase: 'rehash', afterId: 0, pass: 0, rehashed: 0, compared: 0, pairs: 0, total: 0 });

export interface ScanJobDeps {
  hashes: PhotoHashStore;
  duplicates: DuplicateStore;
  libraryDir: string;
  onPhotosChanged(ids: number[]): void;
}

/** How much one step reads (tests make them small to take many steps). */
export interface StepSizes {
  chunk: number;
  block: number;
  rehash: number;
}

export function duplicateScanJob(
  deps: ScanJobDeps,
  sizes: StepSizes = { chunk: CHUNK, block: BLOCK, rehash: REHASH_CHUNK },
): MainHalf<DuplicateScanJobType> {
  const { hashes, duplicates } = deps;

  function loadCompare(d: number, c: Cursor): DuplicateScanInput {
    const loadedAt = Date.now();
    const common = { kind: 'compare' as const, maxDistance: d, maxPerPhoto: MAX_MATCHES_PER_PHOTO };
    let query: PackedPhotos;
    let chunk: { fromId: number; toId: number; startedAt: number; refsAfterId: number };
    if (c.chunk) {
      chunk = c.chunk;
      query = hashes.unscanned(d, chunk.fromId - 1, chunk.toId, Number.MAX_SAFE_INTEGER);
    } else {
      query = hashes.unscanned(d, c.afterId, Number.MAX_SAFE_INTEGER, sizes.chunk);
      if (!query.ids.length) {
        const plan = { phase: 'compare' as const, chunk: null, refsLastId: null, refsDone: true, loadedAt, queryCount: 0 };
        return { ...common, plan, query: EMPTY, refs: EMPTY, includeSelf: false };
      }
      chunk = { fromId: query.ids[0], toId: query.ids[query.ids.length - 1], startedAt: loadedAt, refsAfterId: 0 };
    }
    const refs = hashes.scanned(d, chunk.refsAfterId, sizes.block);
    const plan = {
      phase: 'compare' as const,
      chunk: { fromId: chunk.fromId, toId: chunk.toId, startedAt: chunk.startedAt },
      refsLastId: refs.ids.length ? refs.ids[refs.ids.length - 1] : null,
      refsDone: refs.ids.length < sizes.block,
      loadedAt,
      queryCount: query.ids.length,
    };
    return { ...common, plan, query, refs, includeSelf: !c.chunk };
  }

  const progress = (c: Cursor) => (c.phase === 'rehash' || !c.total ? 0 : Math.min(0.99, c.compared / c.total));

  return {
    load({ payload }) {
      const c = payload.cursor ?? fresh();
      if (c.phase === 'compare') return loadCompare(payload.maxDistance, c);
      const rows = hashes.needingRehash(c.afterId, sizes.rehash);
      return {
        kind: 'rehash',
        plan: { phase: 'rehash', lastId: rows.length ? rows[rows.length - 1].id : null },
        photos: rows.map((r) => ({ id: r.id, thumbnailPath: path.join(deps.libraryDir, r.thumbnail) })),
      };
    },

    apply(out, job) {
      const d = job.payload.maxDistance;
      const c = job.payload.cursor ?? fresh();
      const next = (cursor: Cursor, summary: string): Continuation<Payload> => ({
        summary,
        progress: progress(cursor),
        continueWith: { maxDistance: d, cursor },
      });

      if (out.kind === 'rehash') {
        if (out.plan.phase !== 'rehash') throw new Error('a re-hash step came back with a compare plan');
        for (const h of out.hashed) hashes.recordRehash(h.id, h.full, h.hashes);
        const rehashed = c.rehashed + out.hashed.length;
        if (out.plan.lastId === null) {
          return next(
            { ...c, phase: 'compare', afterId: 0, rehashed, total: hashes.countUnscanned(d) },
            rehashed ? `Re-hashed ${rehashed} photos; comparing` : 'Comparing',
          );
        }
        return next({ ...c, afterId: out.plan.lastId, rehashed }, `Re-hashed ${rehashed} photos hashed by an older method`);
      }

      const plan = out.plan;
      if (plan.phase !== 'compare') throw new Error('a compare step came back with a re-hash plan');
      const now = Date.now();
      const changed = new Set<number>();
      let found = 0;
      const p = out.pairs;
      for (let i = 0; i + 3 < p.length; i += 4) {
        const by = MATCHED_BY[p[i + 3]];
        if (!by || !(p[i] > 0 && p[i] < p[i + 1]) || !(p[i + 2] >= 0 && p[i + 2] <= 64)) continue;
        if (duplicates.found(p[i], p[i + 1], p[i + 2], by, plan.loadedAt, now)) {
          found++;
          changed.add(p[i]).add(p[i + 1]);
        }
      }
      if (changed.size) deps.onPhotosChanged([...changed]);
      const pairs = c.pairs + found;

      if (!plan.chunk) {
        // Nothing left after afterId. Photos hashed meanwhile (behind it) get another pass.
        const left = hashes.countUnscanned(d);
        if (left && c.pass + 1 < MAX_PASSES) {
          return next(
            { ...c, afterId: 0, chunk: undefined, pass: c.pass + 1, pairs, total: c.compared + left },
            describe(c.compared, pairs),
          );
        }
        return finalSummary(c.rehashed, c.compared, pairs);
      }
      if (plan.refsDone) {
        hashes.markScanned(plan.chunk.fromId, plan.chunk.toId, d, plan.chunk.startedAt);
        const compared = c.compared + plan.queryCount;
        return next({ ...c, afterId: plan.chunk.toId, chunk: undefined, compared, pairs }, describe(compared, pairs));
      }
      const chunk = { ...plan.chunk, refsAfterId: plan.refsLastId ?? c.chunk?.refsAfterId ?? 0 };
      return next({ ...c, chunk, pairs }, describe(c.compared, pairs));
    },
  };
}

function describe(compared: number, pairs: number): string {
  return `${compared.toLocaleString('en-US')} photos compared, ${pairs.toLocaleString('en-US')} new pairs`;
}

function finalSummary(rehashed: number, compared: number, pairs: number): string {
  const parts = [
    rehashed ? `${rehashed.toLocaleString('en-US')} re-hashed` : null,
    `${compared.toLocaleString('en-US')} photos compared`,
    pairs ? `${pairs.toLocaleString('en-US')} new pairs to review` : 'no new duplicates',
  ];
  return parts.filter(Boolean).join('; ');
}
