/**
 * The worker side of the `metadata` job: a pure function of its input. It reads the photo (never
 * writes it), checks it is still the file that was imported, extracts dimensions, orientation and
 * selected EXIF/XMP/IPTC fields, writes a thumbnail and computes a perceptual hash. It never
 * touches the database; main validates the result with `photoMetadataSchema` and applies it.
 *
 * Cost per photo: one read of the file into memory (photo-source.ts), a SHA-256 pass over that
 * buffer only when the file's stamp moved since main hashed it at import, one header parse (a walk
 * of the segments for a JPEG, sharp's metadata otherwise), one decode to thumbnail-sized pixels
 * (JPEGs use shrink-on-load so a 40 MP scan is decoded at roughly thumbnail size), the pHashes computed from those pixels (one pass,
 * see photo-hashes.ts), and the thumbnail's JPEG encoded from them. Work on the thread pool
 * (header, decode, encode) overlaps with work on the worker's own thread (hash, EXIF parse, pHashes).
 *
 * A file larger than STREAM_ABOVE_BYTES (an archival TIFF of several hundred MB) is never held in
 * memory: its hash is computed from 1 MiB reads, the decoder and the EXIF reader read the file
 * themselves, and only its first MiB (format, JPEG header) is read here. With several workers,
 * whole-file buffers of such scans were what took memory beyond the machine's (issue 32 item 5).
 * The outputs are the same either way (metadata.stream.test.ts compares them).
 *
 * A file of several pages (a multi-page TIFF) or frames is read at its first; the output says how
 * many it holds (`pages`), and main records the count on the photo.
 *
 * Errors: input a retry cannot fix → PermanentJobError with a specific message; transient I/O
 * (EMFILE, EBUSY, a file still being written, failure to write the thumbnail) → plain Error.
 * Global sharp settings (concurrency, cache) are the caller's business and are not touched here.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp, { type Metadata, type OutputInfo, type SharpOptions } from 'sharp';
import { PermanentJobError } from '../../shared/jobs/errors';
import { readEmbeddedMetadata, type EmbeddedMetadata } from './exif';
import { photoMetadataSchema, type PhotoMetadata } from '../../shared/jobs/outputs/photo-metadata';
import {
  FORMAT_LABELS,
  SNIFF_BYTES,
  describeFirstBytes,
  isSupportedFormat,
  sniffFormat,
  type ImageFormat,
} from '../../shared/image-formats';
import type { MetadataInput } from '../../shared/jobs/types/metadata';
import { isAbortError } from '../../shared/node/io-errors';
import { photoHashesFromPixels } from './photo-hashes';
import { decoderError, formatPixelLimit } from './decode-errors';
import { readJpegHeader } from './jpeg-header';
import { openPhotoSource } from './photo-source';
import { detectScanner } from './scanner';
import { readSidecar } from './sidecar';
import { DEFAULT_THUMBNAIL_LONG_SIDE, THUMBNAIL_JPEG_QUALITY } from './thumbnail';

export { DEFAULT_THUMBNAIL_LONG_SIDE, THUMBNAIL_JPEG_QUALITY };

/**
 * sharp's `failOn`. 'error' rejects truncated and corrupt pixel data (a JPEG cut short fails with
 * "premature end of JPEG image") but tolerates libjpeg *warnings* such as "extraneous bytes
 * before marker", which many old scanners and editors produce in files that display fine.
 */
export const SHARP_FAIL_ON = 'error' as const;

/** What main hands the `metadata` job's worker (defined with the job type, src/shared/jobs/types/metadata.ts). */
export type ExtractPhotoMetadataInput = MetadataInput;

export { photoMetadataSchema, type PhotoMetadata };
export type { EmbeddedMetadata };

/** Files larger than this are streamed, not read into memory (see the header). */
export const STREAM_ABOVE_BYTES = 64 * 1024 * 1024;

// ---------------------------------------------------------------------------------------------
// Header

/** For promises whose rejection is handled where they are awaited, or not at all when dropped. */
const ignore = () => undefined;

/** What the job reads before decoding, from the JPEG walk or from the decoder. */
interface ImageHeader {
  width?: number;
  height?: number;
  /** EXIF orientation 1–8, or null. */
  orientation: number | null;
  /** Displayed size when the decoder reported it. */
  autoOrient?: { width: number; height: number };
  exif?: Buffer;
  xmp?: Buffer;
  /** Pages or frames in the file, as the decoder counts them (a JPEG has one). */
  pages?: number;
}

async function decoderHeader(bytes: Buffer | string, options: SharpOptions): Promise<ImageHeader> {
  // Header only: no pixel limit here, so a pixel bomb is reported with its dimensions.
  const meta: Metadata = await sharp(bytes, { ...options, limitInputPixels: false }).metadata();
  const o = meta.orientation;
  return {
    width: meta.width,
    height: meta.height,
    orientation: o && o >= 1 && o <= 8 ? o : null,
    autoOrient: meta.autoOrient,
    exif: meta.exif,
    xmp: meta.xmp,
    pages: meta.pages,
  };
}

/** Orientations 5–8 turn the picture a quarter: width and height swap on display. */
function displaySize(
  width: number,
  height: number,
  orientation: number | null,
  autoOrient?: { width: number; height: number },
): { displayWidth: number; displayHeight: number } {
  const swapped = orientation !== null && orientation >= 5;
  return {
    displayWidth: autoOrient?.width ?? (swapped ? height : width),
    displayHeight: autoOrient?.height ?? (swapped ? width : height),
  };
}

/** True when a thumbnail is clearly landscape where the display size is portrait, or the reverse. */
function contradicts(display: { displayWidth: number; displayHeight: number }, w: number, h: number): boolean {
  return (display.displayWidth > display.displayHeight && w < h) || (display.displayWidth < display.displayHeight && w > h);
}

// ---------------------------------------------------------------------------------------------
// Thumbnail

/** Folders this process has made or found (the thumbnails' 256 shards): no mkdir per photo. */
const knownFolders = new Set<string>();

async function writeFileAtomically(target: string, data: Buffer, signal: AbortSignal | undefined): Promise<void> {
  const folder = path.dirname(target);
  const tmp = `${target}.tmp-${randomBytes(6).toString('hex')}`;
  try {
    if (!knownFolders.has(folder)) await mkdir(folder, { recursive: true });
    try {
      await writeFile(tmp, data, { flag: 'wx' });
    } catch (err) {
      // The folder was removed since (someone tidied the library folder): make it again, once.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      await mkdir(folder, { recursive: true });
      await writeFile(tmp, data, { flag: 'wx' });
    }
    knownFolders.add(folder);
    signal?.throwIfAborted();
    await rename(tmp, target);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------

export async function extractPhotoMetadata(
  input: ExtractPhotoMetadataInput,
  options: { signal?: AbortSignal; streamAboveBytes?: number } = {},
): Promise<PhotoMetadata> {
  const { signal, streamAboveBytes = STREAM_ABOVE_BYTES } = options;
  const longSide = input.thumbnailLongSide ?? DEFAULT_THUMBNAIL_LONG_SIDE;
  if (!Number.isInteger(longSide) || longSide < 16 || longSide > 8192) {
    throw new Error(`thumbnailLongSide must be an integer between 16 and 8192, got ${longSide}`);
  }
  // The photo is never written: refuse a thumbnail path that would overwrite it.
  if (path.resolve(input.thumbnailPath) === path.resolve(input.path)) {
    throw new Error(`Refusing to write the thumbnail over the photo itself (${input.path})`);
  }
  signal?.throwIfAborted();

  // 1. Read once (or, for a very large file, its head, the rest streamed: see the header).
  const source = await openPhotoSource(input.path, input.expected, input.maxFileBytes, streamAboveBytes, signal);
  const { head, input: bytes } = source;
  signal?.throwIfAborted();

  // 2. What is it, by its bytes? (Reported after the identity check below.)
  const sniffed = sniffFormat(head.subarray(0, SNIFF_BYTES));

  // 3. The header: a JPEG's is read here from its bytes; other formats ask the decoder. The decode
  //    starts at once on the thread pool; the hash, the format check and the EXIF parse run on this
  //    thread meanwhile. Nothing is written before every check below has passed, and the decode
  //    refuses a pixel bomb by itself (limitInputPixels). Rejections are handled where awaited;
  //    when an earlier check throws first, they are dropped.
  const sharpOptions = { limitInputPixels: input.maxInputPixels, failOn: SHARP_FAIL_ON } as const;
  const decodable = sniffed !== null && isSupportedFormat(sniffed); // bytes of anything else never reach the decoder
  // A streamed JPEG whose header runs past its head is left to the decoder's header.
  const jpegHeader = sniffed === 'jpeg' ? readJpegHeader(head) : null;
  const header: Promise<ImageHeader> | null = !decodable
    ? null
    : jpegHeader
      ? Promise.resolve(jpegHeader)
      : decoderHeader(bytes, sharpOptions);
  const tooLarge = jpegHeader !== null && jpegHeader.width * jpegHeader.height > input.maxInputPixels;
  // One decode: oriented, downscaled, flattened 8-bit pixels. The pHash and the thumbnail are
  // both made from them, so the thumbnail is never decoded again.
  const decoded =
    !decodable || tooLarge
      ? null
      : sharp(bytes, sharpOptions)
          .rotate()
          .resize({ width: longSide, height: longSide, fit: 'inside', withoutEnlargement: true })
          .flatten({ background: '#ffffff' })
          .raw({ depth: 'uchar' })
          .toBuffer({ resolveWithObject: true });
  header?.catch(ignore);
  decoded?.catch(ignore);

  // 4. Still the file that was imported? (By its stamp, else by its hash: see photo-source.ts.)
  const sha256 = await source.sha256();
  if (input.expected && sha256 !== input.expected.sha256.toLowerCase()) {
    throw new PermanentJobError(
      `File changed since import: hash differs (sha256 ${sha256.slice(0, 12)}… ≠ ${input.expected.sha256
        .toLowerCase()
        .slice(0, 12)}… recorded at import)`,
    );
  }
  if (sniffed === null) {
    throw new PermanentJobError(
      `Not an image: the file's bytes are not a supported image format (first bytes ${describeFirstBytes(head)})`,
    );
  }
  if (!isSupportedFormat(sniffed)) {
    throw new PermanentJobError(
      `Unsupported image format: ${FORMAT_LABELS[sniffed]} cannot be decoded by this build; convert it to JPEG or TIFF`,
    );
  }
  const format: ImageFormat = sniffed;

  // 5. Dimensions, orientation and the pixel limit.
  let meta: ImageHeader;
  try {
    meta = await header!;
  } catch (err) {
    throw decoderError(err, format);
  }
  const { width, height } = meta;
  if (!width || !height) {
    throw new PermanentJobError(`Truncated or corrupt ${FORMAT_LABELS[format]}: the header declares no dimensions`);
  }
  if (width * height > input.maxInputPixels || !decoded) {
    throw new PermanentJobError(
      `Image too large: ${width}×${height} px exceeds the ${formatPixelLimit(input.maxInputPixels)} limit`,
    );
  }
  signal?.throwIfAborted();

  // 6. Embedded metadata (never fatal).
  const embedded = await readEmbeddedMetadata(bytes, format, { exif: meta.exif, xmp: meta.xmp });
  signal?.throwIfAborted();

  // 7. The decoded pixels.
  let pixels: { data: Buffer; info: OutputInfo };
  try {
    pixels = await decoded;
  } catch (err) {
    throw decoderError(err, format, width, height, input.maxInputPixels);
  }
  signal?.throwIfAborted();
  const { width: thumbWidth, height: thumbHeight, channels } = pixels.info;
  // The decoder applied the orientation it read itself. Should the thumbnail's shape contradict
  // the orientation read from the bytes, the decoder's reading is the one to report.
  if (jpegHeader && contradicts(displaySize(width, height, meta.orientation), thumbWidth, thumbHeight)) {
    const decoders = await decoderHeader(bytes, sharpOptions).catch(() => null);
    if (decoders) meta = { ...meta, orientation: decoders.orientation, autoOrient: decoders.autoOrient };
  }
  const orientation = meta.orientation;
  const { displayWidth, displayHeight } = displaySize(width, height, orientation, meta.autoOrient);

  // 8. The thumbnail's JPEG is encoded on the thread pool while the pHash is computed here.
  const encoded = sharp(pixels.data, { raw: { width: thumbWidth, height: thumbHeight, channels } })
    .jpeg({ quality: THUMBNAIL_JPEG_QUALITY })
    .toBuffer();
  encoded.catch(ignore);

  // Perceptual hashes of what the thumbnail shows (the duplicate scan compares them).
  const hashes = photoHashesFromPixels(pixels.data, thumbWidth, thumbHeight, channels);

  let thumbnail: Buffer;
  try {
    thumbnail = await encoded;
  } catch (err) {
    // The pixels are ours, not the file's: whatever failed here (memory) may pass on a retry.
    throw new Error(`Could not encode the thumbnail: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  signal?.throwIfAborted();

  // A streamed file was read three times (hash, header, decode): still the same file?
  await source.unchanged();

  // 9. Publish the thumbnail atomically. A failure here is the library folder's (disk full,
  //    permissions, a reader holding the file on Windows): a plain, retryable Error.
  try {
    await writeFileAtomically(input.thumbnailPath, thumbnail, signal);
  } catch (err) {
    if (isAbortError(err) || signal?.aborted) throw err;
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(`Could not write the thumbnail ${input.thumbnailPath}: ${reason}`, { cause: err });
  }

  const exif = embedded.fields;
  const sidecar = await readSidecar(input.path);
  return {
    sha256,
    size: source.size,
    format,
    width,
    height,
    orientation,
    displayWidth,
    displayHeight,
    thumbnail: { path: input.thumbnailPath, width: thumbWidth, height: thumbHeight },
    phash: hashes.full,
    duplicateHashes: hashes.hashes,
    exif,
    exifError: embedded.error,
    scanner: detectScanner(exif.make, exif.model, exif.software),
    sidecar,
    // The decoder reads the first page (its default); the others are counted, so the archivist is told.
    ...(meta.pages !== undefined && meta.pages > 1 ? { pages: meta.pages } : {}),
  };
}
