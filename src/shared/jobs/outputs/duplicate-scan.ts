/**
 * What one step of `duplicate_scan` hands the worker and gets back (the steps: src/main/duplicates/scan-job.ts).
 * A step either re-hashes photos hashed by an older method, from their thumbnails, or compares a
 * chunk of photos not yet scanned with themselves and with a block of scanned photos.
 */
import { z } from 'zod';
import { HASHES_PER_PHOTO } from '../../duplicates/hash-set';

/** Photos and their hashes, packed: 2 × HASHES_PER_PHOTO words per photo, in `ids` order. */
export interface PackedPhotos {
  ids: Int32Array;
  words: Uint32Array;
}

/** What main decided this step does; the worker hands it back so `apply` knows where the scan is. */
export const scanPlanSchema = z.discriminatedUnion('phase', [
  z.object({ phase: z.literal('rehash'), lastId: z.number().int().nullable() }).strict(),
  z
    .object({
      phase: z.literal('compare'),
      /** The chunk of unscanned photos being compared; null: none left. */
      chunk: z.object({ fromId: z.number().int(), toId: z.number().int(), startedAt: z.number() }).strict().nullable(),
      /** The last scanned photo of this step's block, and whether the block was the last one. */
      refsLastId: z.number().int().nullable(),
      refsDone: z.boolean(),
      /** Pairs are kept only for photos whose hashes did not change after this. */
      loadedAt: z.number(),
      queryCount: z.number().int(),
    })
    .strict(),
]);
export type ScanPlan = z.infer<typeof scanPlanSchema>;

export type DuplicateScanInput =
  | { kind: 'rehash'; plan: ScanPlan; photos: { id: number; thumbnailPath: string }[] }
  | {
      kind: 'compare';
      plan: ScanPlan;
      maxDistance: number;
      maxPerPhoto: number;
      query: PackedPhotos;
      /** A block of scanned photos (may be empty). */
      refs: PackedPhotos;
      /** Also pair the chunk's photos with each other (its first step). */
      includeSelf: boolean;
    };

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
      kind: z.literal('compare'),
      plan: scanPlanSchema,
      /** (a, b, distance, how) per pair, a < b; how indexes MATCHED_BY. */
      pairs: z
        .instanceof(Int32Array)
        .refine((a) => a.length % 4 === 0 && a.length <= 4 * MAX_PAIRS_PER_STEP, 'pairs come in fours, at most 200,000'),
      truncated: z.boolean(),
    })
    .strict(),
]);
export type DuplicateScanOutput = z.infer<typeof duplicateScanOutputSchema>;
