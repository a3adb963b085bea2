/**
 * Copies of a dated photograph rendered in another process or shape, for the heuristic's
 * calibration set. A copy keeps the date of the photograph it copies: a greyscale scan, a sepia or
 * cyanotype toning, a print border or mount, a crop to an old print's shape change the look, not
 * when the picture was taken. Each copy exercises one kind of claim the heuristic makes from that
 * look (the families of src/worker/ai/heuristic-calibration.ts), so every claim is measured on
 * photographs whose true date is known, old and new, instead of stated on faith.
 */
import sharp, { type Sharp } from 'sharp';

export type RenderedProcess =
  'greyscale' | 'sepia' | 'cyanotype' | 'bordered' | 'crop-square' | 'crop-carte-de-visite' | 'crop-cabinet-card' | 'crop-4x5';

/** Long side / short side of the old print shapes the crops take (the heuristic's HISTORICAL_FORMATS). */
const CROPS: Partial<Record<RenderedProcess, number>> = {
  'crop-square': 1,
  'crop-carte-de-visite': 1.62,
  'crop-cabinet-card': 6.5 / 4.25,
  'crop-4x5': 1.25,
};

/** The centred region of a width×height image with the given long/short ratio, in the same orientation. */
export function centredCrop(width: number, height: number, ratio: number) {
  const landscape = width >= height;
  const long = landscape ? width : height;
  const short = landscape ? height : width;
  let cropLong = long;
  let cropShort = Math.round(long / ratio);
  if (cropShort > short) {
    cropShort = short;
    cropLong = Math.round(short * ratio);
  }
  const w = landscape ? cropLong : cropShort;
  const h = landscape ? cropShort : cropLong;
  return { left: Math.floor((width - w) / 2), top: Math.floor((height - h) / 2), width: w, height: h };
}

/** The copy a process makes of an oriented image (its raw pixels and size). */
function render(img: Sharp, width: number, height: number, process: RenderedProcess): Sharp {
  const ratio = CROPS[process];
  if (ratio !== undefined) return img.extract(centredCrop(width, height, ratio));
  switch (process) {
    case 'greyscale':
      return img.greyscale();
    // tint keeps each pixel's luminance and gives it the tint's chroma: a toned monochrome print.
    case 'sepia':
      return img.tint({ r: 112, g: 66, b: 20 });
    case 'cyanotype':
      return img.tint({ r: 30, g: 80, b: 150 });
    case 'bordered': {
      // A white print border (or mount) about 6 % deep on every side.
      const x = Math.round(width * 0.06);
      const y = Math.round(height * 0.06);
      return img.extend({ top: y, bottom: y, left: x, right: x, background: { r: 246, g: 244, b: 238 } });
    }
    default:
      throw new Error(`no rendering for ${process}`);
  }
}

/**
 * Writes `source` rendered in each process to `outFor(process)` (JPEG). The source is decoded
 * once, upright and at most 1024 pixels on its long side: the heuristic samples 256, and the
 * shape it reads keeps its ratio.
 */
export async function renderCopies(
  source: string,
  processes: readonly RenderedProcess[],
  outFor: (process: RenderedProcess) => string,
): Promise<void> {
  const { data, info } = await sharp(source)
    .autoOrient()
    .resize({ width: 1024, height: 1024, fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  for (const process of processes) {
    const img = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
    await render(img, info.width, info.height, process).jpeg({ quality: 90 }).toFile(outFor(process));
  }
}

export const RENDERED_PROCESSES: readonly RenderedProcess[] = [
  'greyscale',
  'sepia',
  'cyanotype',
  'bordered',
  'crop-square',
  'crop-carte-de-visite',
  'crop-cabinet-card',
  'crop-4x5',
];
