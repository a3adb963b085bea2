/**
 * `constraint_rebuild`: recompute stored estimates from evidence for a selection or the whole
 * library, in checkpointed chunks (see src/main/dating/rebuild-job.ts).
 */
import { z } from 'zod';
import { defineJobType, trusted } from '../define';
import { rebuildOutputSchema, type RebuildInput } from '../outputs/rebuild';
import { photoId, MINUTE } from './common';

export const constraintRebuildJobType = defineJobType({
  type: 'constraint_rebuild',
  description: 'Recompute date estimates from evidence for a selection or the whole library.',
  payload: z
    .object({
      photoIds: z.array(photoId).max(100_000).optional(),
      /** Checkpoint written by the runtime between chunks: resume after this photo id. */
      cursor: z
        .object({ afterId: z.number().int().min(0), done: z.number().int().min(0), total: z.number().int().min(0) })
        .optional(),
    })
    .strict(),
  input: trusted<RebuildInput>(),
  output: rebuildOutputSchema,
  subject: (p) => (p.photoIds ? null : 'library'),
  policy: { maxRetries: 2, timeoutMs: 30 * MINUTE, handOff: 1, prefetch: 0, checkpointed: true },
  limits: {},
  ui: { label: 'Rebuild estimates', inSentence: 'the estimate rebuild', startable: true },
});
export type ConstraintRebuildJobType = typeof constraintRebuildJobType;
