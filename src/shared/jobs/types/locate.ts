/**
 * `locate`: the archivist says where missing photos went (a file or a folder), and every missing
 * photo whose content is found there is relinked to it. Matched by SHA-256 alone, never by name: a
 * worker walks the place and hashes only the files whose size is that of a missing photo; main
 * matches those hashes against the library (its SHA-256 index) and relinks in the transaction
 * that ends the job, one audit entry per photo.
 *
 * Only the sizes cross to the worker, not the hashes: a drive that is not plugged in makes up to
 * a million photos missing, and handing the worker a million hashes held main for ~250 ms while
 * they were serialised (and the worker's heap for ~150 MB).
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
  /** The missing photos' sizes (one per photo): a file of another size is not hashed. */
  sizes: number[];
  /** How many photos are missing (for the progress message). */
  missing: number;
}

const count = z.number().int().min(0);
const filePath = z.string().min(1).max(4096);

/** Files named in the report (all are counted). */
export const LOCATE_LISTED_FILES = 20;

/** More files of a missing photo's size than this in one place: the archivist is asked to choose a smaller one. */
export const LOCATE_MAX_CANDIDATES = 2_000_000;

export const locateOutputSchema = z.object({
  /**
   * Files whose size is a missing photo's, with their content's SHA-256, in the order walked:
   * main relinks the first file of each missing photo's content and counts the other images as
   * unmatched.
   */
  candidates: z
    .array(
      z.object({
        sha256: z.string().regex(/^[0-9a-f]{64}$/),
        path: filePath,
        filename: z.string().max(1024),
        mtimeMs: z.number(),
      }),
    )
    .max(LOCATE_MAX_CANDIDATES),
  /** Image files there whose size is no missing photo's (main adds the candidates that matched none). */
  unmatched: count,
  unmatchedFiles: z.array(filePath).max(LOCATE_LISTED_FILES),
  /** Files and folders that could not be read (permission denied, gone while walked). */
  unreadable: count,
  unreadableFiles: z.array(z.object({ path: filePath, message: z.string().max(2000) })).max(LOCATE_LISTED_FILES),
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
  ui: {
    label: 'Locate',
    inSentence: 'the search for missing files',
    subjectWords: (subject) => `in ${subject.slice('locate:'.length)}`,
  },
});
export type LocateJobType = typeof locateJobType;
