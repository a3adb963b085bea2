/**
 * The worker's half of `duplicate_scan`: one step, as main planned it (src/main/duplicates/scan-job.ts).
 * A re-hash step reads thumbnails and computes their duplicate hashes; a compare step pairs a
 * chunk of photos with itself and with a block of scanned photos through the hash indexes.
 */
import { readFile } from 'node:fs/promises';
import { MATCHED_BY } from '../../shared/duplicates/hash-set';
import { isAbortError } from '../../shared/node/io-errors';
import { MAX_PAIRS_PER_STEP, type DuplicateScanOutput } from '../../shared/jobs/outputs/duplicate-scan';
import type { DuplicateScanJobType } from '../../shared/jobs/types/duplicate-scan';
import { findPairs, type FoundPair } from '../duplicates/find-pairs';
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

  const opts = { maxDistance: input.maxDistance, maxPerPhoto: input.maxPerPhoto, signal: ctx.signal };
  const found: FoundPair[] = [];
  if (input.includeSelf) found.push(...findPairs(input.query, null, opts));
  if (input.refs.ids.length)
    found.push(...findPairs(input.query, input.refs, { ...opts, progress: (f) => ctx.progress(f, 'Comparing') }));
  const truncated = found.length > MAX_PAIRS_PER_STEP;
  if (truncated) found.sort((a, b) => a.distance - b.distance).length = MAX_PAIRS_PER_STEP;
  const pairs = new Int32Array(found.length * 4);
  found.forEach((p, i) => pairs.set([p.a, p.b, p.distance, MATCHED_BY.indexOf(p.by)], i * 4));
  return { kind: 'compare', plan: input.plan, pairs, truncated };
};
