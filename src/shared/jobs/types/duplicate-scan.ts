/**
 * `duplicate_scan`: find near-duplicate photos (the same photograph in different scans) by their
 * perceptual hashes, re-hashing first the photos hashed by an older method. Incremental — only
 * photos not yet scanned are compared, with each other and with every scanned photo; a worker
 * keeps its copy of the library's hashes between scans and is sent only what changed — and
 * checkpointed in short steps (src/main/duplicates/scan-job.ts).
 */
import { z } from 'zod';
import { defineJobType, trusted } from '../define';
import { DEFAULT_MAX_DISTANCE, MAX_MAX_DISTANCE } from '../../duplicates/hash-set';
import { duplicateScanOutputSchema, type DuplicateScanInput } from '../outputs/duplicate-scan';
import { MINUTE } from './common';

const count = z.number().int().min(0);

export const duplicateScanJobType = defineJobType({
  type: 'duplicate_scan',
  description: 'Find the same photograph in different scans (perceptual hashes), for review on the Duplicates screen.',
  payload: z
    .object({
      /** Hashes at most this many bits apart (of 64) are the same picture. */
      maxDistance: z.number().int().min(0).max(MAX_MAX_DISTANCE).default(DEFAULT_MAX_DISTANCE),
      /** Checkpoint written by the runtime between steps. */
      cursor: z
        .object({
          phase: z.enum(['rehash', 'sync', 'prune', 'load', 'compare']),
          /** rehash: the last photo looked at; load: the last photo handed over; compare: the last one compared. */
          afterId: count,
          /** sync: the time the worker's copy (kept from an earlier scan) holds the library as of. */
          copyBase: z.number().min(0).optional(),
          /** The worker's copy of the library: the time it holds it as of, which attempt's worker holds it, how many photos. */
          startedAt: z.number().min(0),
          attempt: z.number().int(),
          holds: count,
          rehashed: count,
          compared: count,
          pairs: count,
          /** Photos to compare when loading began (for progress). */
          total: count,
        })
        .strict()
        .optional(),
    })
    .strict(),
  input: trusted<DuplicateScanInput>(),
  output: duplicateScanOutputSchema,
  subject: () => 'library',
  policy: { maxRetries: 2, timeoutMs: 10 * MINUTE, handOff: 1, prefetch: 0, checkpointed: true },
  limits: {},
  ui: { label: 'Duplicate scan', inSentence: 'the duplicate scan', startable: true },
});
export type DuplicateScanJobType = typeof duplicateScanJobType;
