/** What one chunk of `constraint_rebuild` sends to the worker and gets back. */
import { z } from 'zod';
import { estimateViewSchema } from '../../estimate-view';
import type { EvidenceInput } from '../../dating';

export interface RebuildInput {
  /** `version` identifies the evidence the estimate is computed from (see rebuild-job.ts). */
  photos: { id: number; version: string; evidence: EvidenceInput[] }[];
}

export const rebuildOutputSchema = z.object({
  estimates: z
    .array(z.object({ photoId: z.number().int().positive(), version: z.string().max(40), estimate: estimateViewSchema }))
    .max(5000),
});
export type RebuildOutput = z.infer<typeof rebuildOutputSchema>;
