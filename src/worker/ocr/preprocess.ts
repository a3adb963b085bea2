/**
 * Image preparation for OCR: orient by EXIF, flatten transparency onto white, greyscale,
 * stretch contrast, and rescale so caption text lands in the size range Tesseract's LSTM
 * model reads well. Small scans are upscaled, huge ones capped.
 */
import fs from 'node:fs/promises';
import sharp from 'sharp';
import { PermanentJobError } from '../../shared/jobs/errors';

/** Upscale when the short side is below this. */
export const OCR_MIN_SHORT_SIDE = 1000;
/** Never hand Tesseract more than this on the long side. */
export const OCR_MAX_LONG_SIDE = 4000;

export interface PreparedOcrImage {
  png: Buffer;
  /** EXIF-oriented dimensions of the source image. */
  width: number;
  height: number;
  /** Factor from oriented source pixels to `png` pixels. */
  scale: number;
}

export function ocrScaleFor(width: number, height: number): number {
  const short = Math.min(width, height);
  const long = Math.max(width, height);
  let scale = 1;
  if (short < OCR_MIN_SHORT_SIDE) scale = short < OCR_MIN_SHORT_SIDE / 2.5 ? 3 : 2;
  if (long * scale > OCR_MAX_LONG_SIDE) scale = OCR_MAX_LONG_SIDE / long;
  return scale;
}

/** Fails with a retryable Error when the file cannot be read (e.g. an unmounted drive), permanently when it cannot be decoded. */
export async function prepareOcrImage(imagePath: string): Promise<PreparedOcrImage> {
  try {
    await fs.access(imagePath);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'unknown error';
    throw new Error(`Cannot read image file ${imagePath}: ${code}`, { cause: err });
  }
  try {
    const meta = await sharp(imagePath).metadata();
    const width = meta.autoOrient?.width ?? meta.width;
    const height = meta.autoOrient?.height ?? meta.height;
    if (!width || !height) throw new Error('image has no dimensions');
    const scale = ocrScaleFor(width, height);
    let pipeline = sharp(imagePath).autoOrient();
    if (scale !== 1) {
      pipeline = pipeline.resize({
        width: Math.max(1, Math.round(width * scale)),
        height: Math.max(1, Math.round(height * scale)),
        fit: 'fill',
        kernel: 'lanczos3',
      });
    }
    const png = await pipeline
      .flatten({ background: '#ffffff' })
      .greyscale()
      .normalise()
      .toColourspace('b-w')
      // Tesseract warns about (and guesses around) the 72 dpi of most scans/SVGs; after
      // rescaling, caption text is roughly at 300 dpi proportions.
      .withDensity(300)
      .png({ compressionLevel: 1 })
      .toBuffer();
    return { png, width, height, scale };
  } catch (err) {
    throw new PermanentJobError(`Cannot decode image ${imagePath} for OCR: ${(err as Error).message}`);
  }
}
