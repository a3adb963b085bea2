/**
 * A photo's explained estimate as it travels to the renderer and between main and a worker (the
 * `constraint_rebuild` job): its own module so that job-type definitions and the contract can both
 * use it without importing each other.
 */
import { z } from 'zod';

export const estimateStatusSchema = z.enum(['undated', 'needs_review', 'estimated', 'conflict']);

export const estimateViewSchema = z.object({
  status: estimateStatusSchema,
  earliest: z.number().int().nullable(),
  latest: z.number().int().nullable(),
  confidence: z.number().nullable(),
  earliestSetBy: z.array(z.number().int()),
  latestSetBy: z.array(z.number().int()),
  conflicts: z.array(z.object({ evidenceIds: z.array(z.number().int()), reason: z.string() })),
  edtf: z.string().nullable(),
  dacs: z.string().nullable(),
  explanation: z.array(z.string()),
  /** Evidence that is only a clue, not a date (src/shared/dating/clue-rule.ts). Absent in estimates stored before. */
  clueIds: z.array(z.number().int()).default([]),
  /** What the estimate would say if the clues counted; null without clues. */
  withClues: z
    .object({
      earliest: z.number().int().nullable(),
      latest: z.number().int().nullable(),
      confidence: z.number().nullable(),
      edtf: z.string().nullable(),
      dacs: z.string().nullable(),
    })
    .nullable()
    .default(null),
});
export type EstimateView = z.infer<typeof estimateViewSchema>;
