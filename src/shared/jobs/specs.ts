/**
 * The product's job types. Payload shapes are documented here and in the README ("Job types").
 * Output schemas live with the handler that produces them and are added as handlers land; a type
 * whose handler is not registered is claimed and failed permanently with a readable message.
 */
import { z } from 'zod';
import { defineJobSpec, type JobSpec } from './spec';
import type { JobType } from './states';

const photoId = z.number().int().positive();
const MINUTE = 60_000;

export const productSpecs: Record<JobType, JobSpec<any, any>> = {
  metadata: defineJobSpec({
    type: 'metadata',
    description: 'Read EXIF/XMP/IPTC, dimensions and orientation; write the thumbnail and perceptual hash.',
    payload: z.object({ photoId }).strict(),
    output: z.unknown(),
    subject: (p) => `photo:${p.photoId}`,
    maxRetries: 3,
    timeoutMs: 2 * MINUTE,
    // A few queued in each worker keep it busy while main commits the previous result.
    batchSize: 8,
  }),
  ocr: defineJobSpec({
    type: 'ocr',
    description: 'Read printed or written text (captions, postmarks) and find dates in it.',
    payload: z.object({ photoId }).strict(),
    output: z.unknown(),
    subject: (p) => `photo:${p.photoId}`,
    maxRetries: 2,
    timeoutMs: 5 * MINUTE,
    batchSize: 1,
  }),
  ai_analysis: defineJobSpec({
    type: 'ai_analysis',
    description: 'Visual analysis by the configured backend (heuristic, Ollama or OpenAI-compatible).',
    payload: z.object({ photoId }).strict(),
    output: z.unknown(),
    subject: (p) => `photo:${p.photoId}`,
    maxRetries: 4,
    timeoutMs: 5 * MINUTE,
    batchSize: 1,
  }),
  duplicate_scan: defineJobSpec({
    type: 'duplicate_scan',
    description: 'Compare perceptual hashes across the library to find likely duplicates.',
    payload: z.object({ maxDistance: z.number().int().min(0).max(32).default(6) }).strict(),
    output: z.unknown(),
    subject: () => 'library',
    maxRetries: 2,
    timeoutMs: 30 * MINUTE,
    batchSize: 1,
  }),
  constraint_rebuild: defineJobSpec({
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
    output: z.unknown(),
    subject: (p) => (p.photoIds ? null : 'library'),
    maxRetries: 2,
    timeoutMs: 30 * MINUTE,
    batchSize: 1,
  }),
  backup: defineJobSpec({
    type: 'backup',
    description: 'Write a consistent copy of the library database to backups/.',
    payload: z.object({}).strict(),
    output: z.unknown(),
    subject: () => 'library',
    maxRetries: 2,
    timeoutMs: 30 * MINUTE,
    batchSize: 1,
  }),
  export: defineJobSpec({
    type: 'export',
    description: 'Export photos with their estimates and evidence as CSV or JSON.',
    payload: z.object({ format: z.enum(['csv', 'json']), destination: z.string().min(1).max(4096) }).strict(),
    output: z.unknown(),
    subject: (p) => `export:${p.destination}`,
    maxRetries: 2,
    timeoutMs: 30 * MINUTE,
    batchSize: 1,
  }),
};
