/**
 * The worker's half of `duplicate_scan`: one step, as main planned it (src/main/duplicates/scan-job.ts).
 * A re-hash step reads thumbnails and computes their duplicate hashes; a load step keeps a page
 * of the library's hashes (scan-cache.ts); a compare step searches the index over them with a
 * chunk of photos not scanned yet.
 */
import { readFile } from 'node:fs/promises';
import { isAbortError } from '../../shared/node/io-errors';
import type { DuplicateScanOutput } from '../../shared/jobs/outputs/duplicate-scan';
import type { DuplicateScanJobType } from '../../shared/jobs/types/duplicate-scan';
import { compareHeld, holdPage, release } from '../duplicates/scan-cache';
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

  const key = `${ctx.jobId}:${ctx.attempt}`;
  if (input.kind === 'idle') {
    release(key);
    return { kind: 'idle', plan: input.plan };
  }
  if (input.kind === 'load') {
    const first = input.plan.phase === 'load' && input.plan.first;
    return { kind: 'load', plan: input.plan, holds: holdPage(key, input.page, first) };
  }
  ctx.progress(0, 'Filing the hashes');
  const result = compareHeld(key, input, { signal: ctx.signal, progress: (f) => ctx.progress(f, 'Comparing') });
  if (input.plan.phase === 'compare' && input.plan.last) release(key);
  return { kind: 'compare', plan: input.plan, ...result };
};
