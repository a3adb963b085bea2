/**
 * What one step of `duplicate_scan` hands the worker and gets back (the steps:
 * src/main/duplicates/scan-job.ts). A step re-hashes photos hashed by an older method from their
 * thumbnails; or asks the worker which copy of the library it kept from an earlier scan; or hands
 * it what changed since that copy (and, when photos were removed, which photos remain); or hands it
 * one page of the whole library (a worker without a copy); or asks it to compare a chunk of
 * not-yet-scanned photos with everything it holds.
 */
import { z } from 'zod';
import { HASHES_PER_PHOTO } from '../../duplicates/hash-set';

/** Photos and their hashes, packed: 2 × HASHES_PER_PHOTO words per photo, in `ids` order. */
export interface PackedPhotos {
  ids: Int32Array;
  words: Uint32Array;
}

/** A page of the library as stored: ids, their hash BLOBs end to end, and which are not scanned yet. */
export interface HashPage {
  ids: Int32Array;
  blobs: Uint8Array;
  unscanned: Uint8Array;
}

/**
 * Rows of `photo_hashes` stamped since a copy was made, as stored: ids, their BLOBs end to end
 * (zeros for a row that is no longer usable: its hashes were dropped, or are by an older method).
 */
export interface ChangedHashes {
  ids: Int32Array;
  blobs: Uint8Array;
  usable: Uint8Array;
}

/**
 * A sync's or a prune's plan: the time the copy holds the library as of once updated (hashes
 * written after it are not in it), how many photos the library holds, and how many to compare.
 */
const copyUpdate = { startedAt: z.number(), count: z.number().int(), total: z.number().int() };

/** What main decided this step does; the worker hands it back so `apply` knows where the scan is. */
export const scanPlanSchema = z.discriminatedUnion('phase', [
  z.object({ phase: z.literal('rehash'), lastId: z.number().int().nullable() }).strict(),
  z.object({ phase: z.literal('probe') }).strict(),
  z.object({ phase: z.literal('sync'), ...copyUpdate }).strict(),
  z.object({ phase: z.literal('prune'), ...copyUpdate }).strict(),
  z
    .object({
      phase: z.literal('load'),
      /** The first page of this attempt's copy of the library (the worker starts afresh). */
      first: z.boolean(),
      /** The last photo of this page, and whether it was the last page. */
      lastId: z.number().int().nullable(),
      done: z.boolean(),
      count: z.number().int(),
      /** When the worker's copy began: hashes written after it are not in it. */
      startedAt: z.number(),
      /** Photos to compare when loading began (for progress). */
      total: z.number().int(),
    })
    .strict(),
  z
    .object({
      phase: z.literal('compare'),
      fromId: z.number().int(),
      toId: z.number().int(),
      startedAt: z.number(),
      /** No photos to compare after this chunk: the worker lets go of its copy. */
      last: z.boolean(),
    })
    .strict(),
  z.object({ phase: z.literal('idle') }).strict(),
]);
export type ScanPlan = z.infer<typeof scanPlanSchema>;

/**
 * `library` names the library and the opening of it the copy is of (src/main/duplicates/copy-token.ts);
 * `base` is the time a copy holds the library as of (its last load or update).
 */
export type DuplicateScanInput =
  | { kind: 'rehash'; plan: ScanPlan; photos: { id: number; thumbnailPath: string }[] }
  | { kind: 'probe'; plan: ScanPlan; library: string }
  | {
      kind: 'sync';
      plan: ScanPlan;
      library: string;
      /** The copy this update applies to, and the time it holds the library as of afterwards. */
      base: number;
      startedAt: number;
      changed: ChangedHashes;
      /** Every photo not scanned yet at this distance (the others are). */
      unscanned: Int32Array;
    }
  | {
      kind: 'prune';
      plan: ScanPlan;
      library: string;
      base: number;
      /** Every photo with usable hashes, ascending: the copy lets go of the others (removed from the library). */
      ids: Int32Array;
    }
  | { kind: 'load'; plan: ScanPlan; library: string; page: HashPage }
  | {
      kind: 'compare';
      plan: ScanPlan;
      library: string;
      maxDistance: number;
      maxPerPhoto: number;
      fromId: number;
      toId: number;
      holds: number;
      /** The time the copy holds the library as of. */
      base: number;
    }
  | { kind: 'idle'; plan: ScanPlan };

const hex16 = z.string().regex(/^[0-9a-f]{16}$/);
/** At most this many pairs come back from one step (the rest wait for the next scan). */
export const MAX_PAIRS_PER_STEP = 200_000;

export const duplicateScanOutputSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('rehash'),
      plan: scanPlanSchema,
      hashed: z
        .array(
          z.object({ id: z.number().int().positive(), full: hex16, hashes: z.array(hex16).length(HASHES_PER_PHOTO).nullable() }),
        )
        .max(10_000),
      failed: z.array(z.object({ id: z.number().int().positive(), message: z.string().max(1000) })).max(10_000),
    })
    .strict(),
  z
    .object({
      kind: z.literal('probe'),
      plan: scanPlanSchema,
      /** The time this worker's copy of the library holds it as of; null: it holds none. */
      base: z.number().nullable(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('sync'),
      plan: scanPlanSchema,
      /** The worker no longer holds that copy: load it all. */
      lost: z.boolean(),
      /** Photos it holds now: more than the library when photos were removed (then it is pruned). */
      holds: z.number().int().min(0),
    })
    .strict(),
  z.object({ kind: z.literal('prune'), plan: scanPlanSchema, lost: z.boolean(), holds: z.number().int().min(0) }).strict(),
  z.object({ kind: z.literal('load'), plan: scanPlanSchema, holds: z.number().int().min(0) }).strict(),
  z
    .object({
      kind: z.literal('compare'),
      plan: scanPlanSchema,
      /** The worker no longer holds the library (it was restarted): load it again. */
      lost: z.boolean(),
      queried: z.number().int().min(0),
      /** (a, b, distance, how) per pair, a < b; how indexes MATCHED_BY. */
      pairs: z
        .instanceof(Int32Array)
        .refine((a) => a.length % 4 === 0 && a.length <= 4 * MAX_PAIRS_PER_STEP, 'pairs come in fours, at most 200,000'),
      truncated: z.boolean(),
    })
    .strict(),
  z.object({ kind: z.literal('idle'), plan: scanPlanSchema }).strict(),
]);
export type DuplicateScanOutput = z.infer<typeof duplicateScanOutputSchema>;
