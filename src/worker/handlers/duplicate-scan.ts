/**
 * The worker's half of `duplicate_scan`: one step, as main planned it (src/main/duplicates/scan-job.ts).
 * A re-hash step reads thumbnails and computes their duplicate hashes; a probe says which copy of
 * the library this process kept from an earlier scan; a sync brings that copy up to date (a prune
 * takes out photos removed from the library), a load
 * step hands over a page of a new one (scan-cache.ts); a compare step searches the copy with a
 * chunk of photos not scanned yet.
 */
import { readFile } from 'node:fs/promises';
import { isAbortError } from '../../shared/node/io-errors';
import type { DuplicateScanOutput } from '../../shared/jobs/outputs/duplicate-scan';
import type { DuplicateScanJobType } from '../../shared/jobs/types/duplicate-scan';
import { compareHeld, holdPage, probe, prune, sync } from '../duplicates/scan-cache';
import { computePhotoHashes } from '../imaging/photo-hashes';
import type { RunHandler } from './types';

export const duplicateScanHandler: RunHandler<DuplicateScanJobType> = async (input, ctx): Promise<DuplicateScanOutput> => {
  if (input.kind === 'rehash') {
    const hashed: Extract<DuplicateScanOutput, { kind: 'rehash' }>['hashed'] = [];
    const failed: { id: number; message: string }[] = [];
    for (const [i, photo] of input.photos.entries()) {
      ctx.signal.throwIfAborted();
      try {
        const h = await computePhotoHashes(await readFile(photo.thumbnailPath));
        hashed.push({ id: photo.id, full: h.full, hashes: h.hashes });
      } catch (err) {
        if (isAbortError(err) || ctx.signal.aborted) throw err;
        failed.push({ id: photo.id, message: `Could not re-hash its thumbnail: ${(err as Error).message}`.slice(0, 1000) });
      }
      ctx.progress((i + 1) / input.photos.length, 'Re-hashing thumbnails');
    }
    return { kind: 'rehash', plan: input.plan, hashed, failed };
  }

  if (input.kind === 'idle') return { kind: 'idle', plan: input.plan };
  if (input.kind === 'probe') return { kind: 'probe', plan: input.plan, base: probe(input.library) };
  if (input.kind === 'sync') {
    const update = { startedAt: input.startedAt, changed: input.changed, unscanned: input.unscanned };
    return { kind: 'sync', plan: input.plan, ...sync(input.library, input.base, update) };
  }
  if (input.kind === 'prune') return { kind: 'prune', plan: input.plan, ...prune(input.library, input.base, input.ids) };
  if (input.kind === 'load') {
    const { plan } = input;
    if (plan.phase !== 'load') throw new Error(`a load step with a ${plan.phase} plan`);
    return { kind: 'load', plan, holds: holdPage(input.library, plan.startedAt, input.page, plan.first, plan.done) };
  }
  ctx.progress(0, 'Comparing');
  const result = compareHeld(input.library, input, { signal: ctx.signal, progress: (f) => ctx.progress(f, 'Comparing') });
  return { kind: 'compare', plan: input.plan, ...result };
};
