/**
 * What the `metadata` job's worker returns, as zod schemas. They live here (no sharp, no exifr)
 * so main can validate a worker's output without loading the imaging libraries.
 */
import { z } from 'zod';
import { SUPPORTED_FORMATS } from '../../image-formats';
import { HASHES_PER_PHOTO } from '../../duplicates/hash-set';

export const MAX_TEXT_CHARS = 2000;
export const MAX_KEYWORDS = 200;
export const MAX_KEYWORD_CHARS = 200;
/** XMP packets larger than this are not parsed (a JPEG's standard packet is at most 64 KB). */

const text = z.string().max(MAX_TEXT_CHARS).nullable();

export const embeddedMetadataSchema = z
  .object({
    /** EXIF DateTimeOriginal (0x9003), raw, e.g. "2008:05:30 15:56:01". */
    dateTimeOriginal: text,
    /** EXIF CreateDate a.k.a. DateTimeDigitized (0x9004), raw. For a scan: the scan date. */
    createDate: text,
    /** IFD0 ModifyDate a.k.a. DateTime (0x0132), raw. */
    modifyDate: text,
    /** EXIF OffsetTimeOriginal (0x9011), raw, e.g. "+02:00". */
    offsetTimeOriginal: text,
    make: text,
    model: text,
    software: text,
    lensModel: text,
    artist: text,
    copyright: text,
    /** IFD0 ImageDescription. */
    description: text,
    /** EXIF UserComment, decoded from its character-code prefix (ASCII / UNICODE / JIS / undefined). */
    userComment: text,
    gpsLatitude: z.number().min(-90).max(90).nullable(),
    gpsLongitude: z.number().min(-180).max(180).nullable(),
    /** IFD0 Orientation as written in the file (1–8), or null. */
    orientation: z.number().int().min(1).max(8).nullable(),
    /** XMP dc:title (x-default language when there are several). */
    xmpTitle: text,
    /** XMP dc:description. */
    xmpDescription: text,
    /** XMP photoshop:DateCreated, raw ISO-8601 prefix, e.g. "1931-05". */
    xmpDateCreated: text,
    /** XMP dc:date (the first, when there is a sequence), raw. */
    xmpDcDate: text,
    /** XMP xmp:CreateDate, raw. */
    xmpCreateDate: text,
    /** XMP exif:DateTimeOriginal (files whose only metadata is XMP), raw. */
    xmpDateTimeOriginal: text,
    /** IPTC 2:120 Caption/Abstract. */
    iptcCaption: text,
    /** IPTC 2:05 Object Name (title). */
    iptcTitle: text,
    /** IPTC 2:55 Date Created, raw "CCYYMMDD". */
    iptcDateCreated: text,
    /** IPTC 2:60 Time Created, raw "HHMMSS±HHMM". */
    iptcTimeCreated: text,
    /** IPTC 2:25 Keywords and XMP dc:subject, de-duplicated. */
    keywords: z.array(z.string().min(1).max(MAX_KEYWORD_CHARS)).max(MAX_KEYWORDS),
  })
  .strict();

export type EmbeddedMetadata = z.infer<typeof embeddedMetadataSchema>;

export const sidecarSchema = z
  .object({
    file: z.string().max(4096),
    /** photoshop:DateCreated, raw. */
    dateCreated: text,
    /** dc:date (the first), raw. */
    dcDate: text,
    /** Circa wrote it (its own namespace is in it): its dates are Circa's estimate, not evidence. */
    writtenByCirca: z.boolean(),
    error: z.string().max(2000).nullable(),
  })
  .strict();
export type SidecarMetadata = z.infer<typeof sidecarSchema>;

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);
const positiveInt = z.number().int().positive();

export const photoMetadataSchema = z
  .object({
    sha256: sha256Hex,
    size: positiveInt,
    format: z.enum(SUPPORTED_FORMATS),
    /** Stored pixel dimensions (before EXIF orientation). */
    width: positiveInt,
    height: positiveInt,
    /** EXIF orientation as applied by the decoder (1–8), or null when the file has none. */
    orientation: z.number().int().min(1).max(8).nullable(),
    /** Dimensions as displayed, after orientation (5–8 swap width and height). */
    displayWidth: positiveInt,
    displayHeight: positiveInt,
    thumbnail: z.object({ path: z.string().min(1), width: positiveInt, height: positiveInt }).strict(),
    /** 64-bit DCT perceptual hash of the oriented image, 16 lowercase hex characters. */
    phash: z.string().regex(/^[0-9a-f]{16}$/),
    /** The duplicate hashes (src/shared/duplicates/hash-set.ts), null when the image is too uniform to compare. */
    duplicateHashes: z
      .array(z.string().regex(/^[0-9a-f]{16}$/))
      .length(HASHES_PER_PHOTO)
      .nullable(),
    exif: embeddedMetadataSchema,
    /** Why (part of) the embedded metadata could not be read; the rest of the result is valid. */
    exifError: z.string().max(2000).nullable(),
    scanner: z.object({ isScan: z.boolean(), reason: z.string().max(2000).nullable() }).strict(),
    /**
     * How many pages (a multi-page TIFF) or frames the file holds, when more than one. The
     * thumbnail, the hashes and the dimensions are of the first; absent for a single image.
     */
    pages: z.number().int().min(2).max(1_000_000).optional(),
    /** An XMP sidecar beside the file (photo.jpg.xmp or photo.xmp) and the dates catalogued in it. */
    sidecar: sidecarSchema.nullable().optional(),
  })
  .strict();

export type PhotoMetadata = z.infer<typeof photoMetadataSchema>;
