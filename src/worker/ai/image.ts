/** Image loading shared by the AI backends: oriented, downscaled copies, never the original bytes. */
import fs from 'node:fs/promises';
import sharp from 'sharp';
import { PermanentJobError } from '../../shared/jobs/errors';

/** Long side of the JPEG sent to a vision model. */
export const AI_IMAGE_MAX_SIDE = 1024;

async function ensureReadable(imagePath: string): Promise<void> {
  try {
    await fs.access(imagePath);
  } catch (err) {
    // Retryable: the file may be on a drive that is not mounted right now.
    throw new Error(`Cannot read image file ${imagePath}: ${(err as NodeJS.ErrnoException).code ?? 'unknown error'}`, {
      cause: err,
    });
  }
}

/** The decoder's own words go with the cause (the job's technical details), not in the message. */
function decodeError(imagePath: string, err: unknown): PermanentJobError {
  return new PermanentJobError(`Cannot decode the image ${imagePath}: it is damaged or not an image`, { cause: err });
}

export interface AiJpeg {
  base64: string;
  width: number;
  height: number;
}

/** EXIF-oriented, alpha flattened onto white, sRGB, long side ≤ 1024, metadata stripped. */
export async function prepareAiJpeg(imagePath: string, maxSide = AI_IMAGE_MAX_SIDE): Promise<AiJpeg> {
  await ensureReadable(imagePath);
  try {
    const { data, info } = await sharp(imagePath)
      .autoOrient()
      .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .jpeg({ quality: 85 })
      .toBuffer({ resolveWithObject: true });
    return { base64: data.toString('base64'), width: info.width, height: info.height };
  } catch (err) {
    throw decodeError(imagePath, err);
  }
}

export interface RawSample {
  /** Interleaved RGB, 3 bytes per pixel. */
  data: Buffer;
  width: number;
  height: number;
  /** EXIF-oriented dimensions of the full image. */
  fullWidth: number;
  fullHeight: number;
}

/** A small oriented RGB copy for image statistics. */
export async function sampleRgb(imagePath: string, maxSide = 256): Promise<RawSample> {
  await ensureReadable(imagePath);
  try {
    const meta = await sharp(imagePath).metadata();
    const fullWidth = meta.autoOrient?.width ?? meta.width;
    const fullHeight = meta.autoOrient?.height ?? meta.height;
    if (!fullWidth || !fullHeight) throw new Error('image has no dimensions');
    const { data, info } = await sharp(imagePath)
      .autoOrient()
      .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new Error(`unexpected channel count ${info.channels}`);
    return { data, width: info.width, height: info.height, fullWidth, fullHeight };
  } catch (err) {
    throw decodeError(imagePath, err);
  }
}
