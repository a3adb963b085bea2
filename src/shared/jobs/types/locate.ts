/**
 * `locate`: the archivist says where missing photos went (a file or a folder), and every missing
 * photo whose content is found there is relinked to it. Matched by SHA-256 alone, never by name: a
 * worker walks the place and hashes only the files whose size is that of a missing photo; main
 * relinks in the transaction that ends the job, one audit entry per photo.
 */
import { z } from 'zod';
import { defineJobType, trusted } from '../define';
import { photoId, MINUTE } from './common';
import { absolutePath } from './export';

export const locatePayloadSchema = z
  .object({
    /** Where to look: a file or a folder (searched with its subfolders). */
    path: absolutePath,
    /**
     * The photos the archivist is looking for (for the report: how many of them are still
     * missing): these, or those whose files were in `folder`; neither: every missing photo. Any
     * missing photo found there is relinked either way.
     */
    photoIds: z.array(photoId).min(1).max(100_000).optional(),
    folder: absolutePath.optional(),
  })
  .strict();

export interface LocateInput {
  path: string;
  /** The missing photos' SHA-256s (lowercase hex) and sizes: a file of another size is not hashed. */
  hashes: string[];
  sizes: number[];
}

const count = z.number().int().min(0);
const filePath = z.string().min(1).max(4096);

/** Files named in the report (all are counted). */
export const LOCATE_LISTED_FILES = 20;

export const locateOutputSchema = z.object({
  /** Files whose content is a missing photo's (one per photo: the first found). */
  found: z
    .array(
      z.object({
        sha256: z.string().regex(/^[0-9a-f]{64}$/),
        path: filePath,
        filename: z.string().max(1024),
        mtimeMs: z.number(),
      }),
    )
    .max(1_000_000),
  /** Image files there that are no missing photo. */
  unmatched: count,
  unmatchedFiles: z.array(filePath).max(LOCATE_LISTED_FILES),
  /** Files and folders that could not be read (permission denied, gone while walked). */
  unreadable: count,
  unreadableFiles: z.array(z.object({ path: filePath, message: z.string().max(2000) })).max(LOCATE_LISTED_FILES),
  /** Files whose size matched, so they were hashed. */
  hashed: count,
});
export type LocateOutput = z.infer<typeof locateOutputSchema>;

export const locateJobType = defineJobType({
  type: 'locate',
  description: 'Look for missing photos in a file or folder the archivist chose, and relink those found there by content.',
  payload: locatePayloadSchema,
  input: trusted<LocateInput>(),
  output: locateOutputSchema,
  subject: (p) => `locate:${p.path}`,
  // A walk of a whole drive may take long; one at a time (they read the same disks).
  policy: { maxRetries: 1, timeoutMs: 120 * MINUTE, handOff: 1, prefetch: 0, concurrency: 1 },
  limits: {},
  ui: { label: 'Locate', inSentence: 'the search for missing files' },
});
export type LocateJobType = typeof locateJobType;
