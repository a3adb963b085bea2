/**
 * What one chunk of `constraint_rebuild` sends to the worker and gets back. Each estimate comes
 * back already written as the JSON main stores (with its state and ends beside it, for the index
 * columns and the "did it move" check): serialising it in the worker rather than in main took
 * about a quarter of main's CPU per photo off the apply, and a string crosses the process boundary
 * and its schema check for less than the object it encodes. Whoever reads a stored estimate checks
 * it against estimateViewSchema (the contract, the export), as before.
 */
import { z } from 'zod';
import { estimateStatusSchema } from '../../estimate-view';
import type { EvidenceInput } from '../../dating';

export interface RebuildInput {
  /** `version` identifies the evidence the estimate is computed from (see rebuild-job.ts). */
  photos: { id: number; version: string; evidence: EvidenceInput[] }[];
}

/** A stored estimate's JSON is a few hundred bytes; one past this is not an estimate. */
export const REBUILD_ESTIMATE_JSON_MAX = 64_000;

export const rebuildOutputSchema = z.object({
  estimates: z
    .array(
      z.object({
        photoId: z.number().int().positive(),
        version: z.string().max(40),
        status: estimateStatusSchema,
        earliest: z.number().int().nullable(),
        latest: z.number().int().nullable(),
        /** JSON.stringify of the engine's estimate, as EvidenceStore.recompute stores it. */
        json: z.string().min(2).max(REBUILD_ESTIMATE_JSON_MAX),
      }),
    )
    .max(5000),
});
export type RebuildOutput = z.infer<typeof rebuildOutputSchema>;
