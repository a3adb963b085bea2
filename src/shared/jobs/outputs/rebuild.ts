/** What one chunk of `constraint_rebuild` sends to the worker and gets back. */
import { z } from 'zod';
import { estimateViewSchema } from '../../contract';
import type { EvidenceInput } from '../../dating';

export interface RebuildInput {
  photos: { id: number; version: number; evidence: EvidenceInput[] }[];
}

export const rebuildOutputSchema = z.object({
  estimates: z
    .array(z.object({ photoId: z.number().int().positive(), version: z.number().int(), estimate: estimateViewSchema }))
    .max(5000),
});
export type RebuildOutput = z.infer<typeof rebuildOutputSchema>;
