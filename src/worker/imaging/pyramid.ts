/**
 * The worker side of the `preview` job: a Deep Zoom pyramid of JPEG tiles of the photo at full
 * resolution (EXIF orientation applied, transparency on white, sRGB), published atomically to
 * `outputDir` with a `pyramid.json` that says what it is.
 *
 * libvips writes the pyramid in one streaming pass (dzsave): a 20,000 × 20,000 px TIFF is never
 * held whole in memory (≈200 MB peak on the test machine, where a decoded copy would be 1.2 GB).
 * The file is checked against its import record first (size, then SHA-256), so the tiles are of
 * the photo the archivist imported. Work goes into `<outputDir>.tmp-…` and is renamed into place
 * only when complete: a crash or a cancel never leaves a half pyramid where main would serve it,
 * and the next attempt removes what a killed one left.
 *
 * Errors: what a retry cannot fix (not the imported file any more, a corrupt or too-large image)
 * is a PermanentJobError in plain words; a full disk or a busy file is a plain Error (retried).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { deepZoomLevels } from '../../shared/deep-zoom';
import { PermanentJobError } from '../../shared/jobs/errors';
import {
  PYRAMID_OVERLAP,
  PYRAMID_QUALITY,
  pyramidSchema,
  type PreviewInput,
  type Pyramid,
} from '../../shared/jobs/types/preview';
import { FORMAT_LABELS, isSupportedFormat, sniffFormat, SNIFF_BYTES } from '../../shared/image-formats';
import { fileTooLarge, sha256File } from '../../shared/node/hash';
import { fsReadError } from '../../shared/node/io-errors';
import { decoderError, formatPixelLimit } from './decode-errors';
import { readFileHead } from './file-head';
import { SHARP_FAIL_ON } from './metadata';

export const PYRAMID_MANIFEST = 'pyramid.json';
/** dzsave's names: `tiles.dzi` and `tiles_files/<level>/<col>_<row>.jpeg`. */
export const PYRAMID_BASENAME = 'tiles';

export interface PyramidOptions {
  signal?: AbortSignal;
  progress?(fraction: number, message?: string): void;
}

/** The pyramid already published at `dir`, or null when there is none (or it is not one we can use). */
export async function readPublishedPyramid(dir: string): Promise<Pyramid | null> {
  try {
    const parsed = pyramidSchema.safeParse(JSON.parse(await readFile(path.join(dir, PYRAMID_MANIFEST), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export async function buildPyramid(input: PreviewInput, opts: PyramidOptions = {}): Promise<Pyramid> {
  const { signal } = opts;
  signal?.throwIfAborted();
  const done = await readPublishedPyramid(input.outputDir);
  if (done) return done; // another attempt finished it (two windows asked at once)

  // 1. Still the imported file? Size first (cheap), then the hash (a pass over the file).
  let st;
  try {
    st = await stat(input.path);
  } catch (err) {
    throw fsReadError(err, input.path);
  }
  if (!st.isFile()) throw new PermanentJobError(`Not a file: ${input.path} is not a regular file`);
  if (st.size !== input.expected.size)
    throw new PermanentJobError(`File changed since import: size ${st.size} ≠ ${input.expected.size} bytes recorded at import`);
  if (st.size > input.maxFileBytes) throw fileTooLarge(st.size, input.maxFileBytes);
  opts.progress?.(0, 'Checking the file');
  const { sha256 } = await sha256File(input.path, { signal });
  if (sha256 !== input.expected.sha256.toLowerCase())
    throw new PermanentJobError('File changed since import: its content is not what was imported');

  // 2. What it is, and how big, before any pixel is decoded.
  const format = sniffFormat(await readFileHead(input.path, SNIFF_BYTES));
  if (!format || !isSupportedFormat(format))
    throw new PermanentJobError(`Not an image Circa can show: ${format ? FORMAT_LABELS[format] : 'unknown format'}`);
  const options = { limitInputPixels: input.maxInputPixels, failOn: SHARP_FAIL_ON, sequentialRead: true } as const;
  let meta;
  try {
    meta = await sharp(input.path, { ...options, limitInputPixels: false }).metadata();
  } catch (err) {
    throw decoderError(err, format);
  }
  const { width, height } = meta;
  if (!width || !height) throw new PermanentJobError(`Truncated or corrupt ${FORMAT_LABELS[format]}: no dimensions`);
  if (width * height > input.maxInputPixels)
    throw new PermanentJobError(
      `Image too large: ${width}×${height} px exceeds the ${formatPixelLimit(input.maxInputPixels)} limit`,
    );
  const turned = (meta.orientation ?? 1) >= 5;
  const shown = { width: turned ? height : width, height: turned ? width : height };
  const levels = deepZoomLevels(shown.width, shown.height, input.tileSize);
  signal?.throwIfAborted();

  // 3. The tiles, into a folder of our own; what a killed attempt left is removed first.
  const parent = path.dirname(input.outputDir);
  const stem = path.basename(input.outputDir);
  await mkdir(parent, { recursive: true });
  for (const name of await readdir(parent)) {
    if (name.startsWith(`${stem}.tmp-`)) await rm(path.join(parent, name), { recursive: true, force: true });
  }
  const work = path.join(parent, `${stem}.tmp-${randomBytes(6).toString('hex')}`);
  await mkdir(work);
  const topLevel = path.join(work, `${PYRAMID_BASENAME}_files`, String(levels - 1));
  const expectedTop = Math.ceil(shown.width / input.tileSize) * Math.ceil(shown.height / input.tileSize);
  // libvips reports no progress: count the full-resolution tiles as they appear (most of the work).
  const watch = setInterval(() => {
    readdir(topLevel)
      .then((names) => opts.progress?.(Math.min(0.99, names.length / expectedTop), 'Making zoom tiles'))
      .catch(() => undefined);
  }, 500);
  try {
    try {
      await sharp(input.path, options)
        .rotate()
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: PYRAMID_QUALITY })
        .tile({ size: input.tileSize, overlap: PYRAMID_OVERLAP, layout: 'dz', depth: 'onetile' })
        .toFile(path.join(work, PYRAMID_BASENAME));
    } catch (err) {
      if (/ENOSPC|no space/i.test(String((err as Error)?.message)))
        throw new Error('Could not write the zoom tiles: the disk holding the library is full', { cause: err });
      throw decoderError(err, format, width, height, input.maxInputPixels);
    }
    signal?.throwIfAborted();
    const written = await countTiles(path.join(work, `${PYRAMID_BASENAME}_files`));
    if (written.levels !== levels)
      throw new Error(`The zoom tiles came out with ${written.levels} levels where ${levels} were expected`);
    const pyramid: Pyramid = {
      ...shown,
      tileSize: input.tileSize,
      overlap: PYRAMID_OVERLAP,
      levels,
      format: 'jpeg',
      tiles: written.tiles,
      bytes: written.bytes,
    };
    await writeFile(path.join(work, PYRAMID_MANIFEST), JSON.stringify(pyramid));
    signal?.throwIfAborted();
    try {
      await rename(work, input.outputDir);
    } catch (err) {
      // Someone else published it meanwhile: theirs is as good as ours.
      const theirs = await readPublishedPyramid(input.outputDir);
      if (theirs) return theirs;
      throw err;
    }
    return pyramid;
  } catch (err) {
    await rm(work, { recursive: true, force: true }).catch(() => undefined);
    throw err;
  } finally {
    clearInterval(watch);
  }
}

async function countTiles(filesDir: string): Promise<{ levels: number; tiles: number; bytes: number }> {
  const levelDirs = (await readdir(filesDir)).filter((n) => /^\d+$/.test(n));
  let tiles = 0;
  let bytes = 0;
  for (const level of levelDirs) {
    for (const name of await readdir(path.join(filesDir, level))) {
      tiles++;
      bytes += (await stat(path.join(filesDir, level, name))).size;
    }
  }
  return { levels: levelDirs.length, tiles, bytes };
}
