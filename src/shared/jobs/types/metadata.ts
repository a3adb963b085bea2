/** `metadata`: read a photo's pixels and embedded metadata; write its thumbnail and perceptual hash. */
import { z } from 'zod';
import { defineJobType } from '../define';
import { fileStampSchema } from '../file-stamp';
import { photoMetadataSchema } from '../outputs/photo-metadata';
import { photoIdPayload, photoSubject, MINUTE } from './common';

/** Larger files are refused before they are read (a 600 dpi 16-bit TIFF of a large print is ~1 GB). */
export const MAX_FILE_BYTES = 1536 * 1024 * 1024;
/** Decoding more pixels than this is refused (pixel bombs); 400 MP covers 20,000 × 20,000 px scans. */
export const MAX_INPUT_PIXELS = 400_000_000;

export const metadataInputSchema = z.object({
  /** Absolute path of the photo; read only, never modified. */
  path: z.string(),
  /**
   * Size and hash recorded at import; when given, the file must still match them. `stamp`: the
   * file's stamp when main hashed it (file-stamp.ts); while it holds, the hash is not recomputed.
   */
  expected: z.object({ size: z.number().int(), sha256: z.string(), stamp: fileStampSchema.optional() }).nullable(),
  /** Where to write the JPEG thumbnail (parent folders are created). */
  thumbnailPath: z.string(),
  /** Long side of the thumbnail in px (never enlarged). Default: DEFAULT_THUMBNAIL_LONG_SIDE. */
  thumbnailLongSide: z.number().int().positive().optional(),
  /** Files larger than this are refused before being read. */
  maxFileBytes: z.number().int().positive(),
  /** Images with more pixels (width × height) than this are refused before being decoded. */
  maxInputPixels: z.number().int().positive(),
});
export type MetadataInput = z.infer<typeof metadataInputSchema>;

export const metadataJobType = defineJobType({
  type: 'metadata',
  description: 'Read EXIF/XMP/IPTC, dimensions and orientation; write the thumbnail and perceptual hash.',
  payload: photoIdPayload,
  input: metadataInputSchema,
  output: photoMetadataSchema,
  subject: photoSubject,
  // Short jobs (tens of ms): handed over several at a time, and a worker keeps a batch queued
  // behind the one it runs, so it never waits for main to commit and claim.
  policy: { maxRetries: 3, timeoutMs: 2 * MINUTE, handOff: 8, prefetch: 8 },
  limits: { maxFileBytes: MAX_FILE_BYTES, maxInputPixels: MAX_INPUT_PIXELS },
  ui: { label: 'Metadata', inSentence: 'metadata', rerunForPhotos: true },
  readsPhoto: true,
});
export type MetadataJobType = typeof metadataJobType;
