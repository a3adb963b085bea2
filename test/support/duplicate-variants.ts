/**
 * Copies of one photograph as an archive ends up holding them: another scan at half the
 * resolution, a low-quality JPEG, a greyscale copy, a brighter one, a print scanned with its
 * border, crops of 5 % (on all sides, or on one side), and scans skewed by 1° and 2°. Made from
 * the shared corpus (../shared/corpus/exif-samples: Wikimedia Commons and exif.org samples; its
 * READMEs give the attribution).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp, { type Sharp } from 'sharp';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CORPUS = path.resolve(repoRoot, '../shared/corpus/exif-samples');

type Transform = (img: Sharp, width: number, height: number) => Sharp;
const QUALITY = { quality: 92 };

export const TRANSFORMS = {
  original: { label: 'original (re-encoded)', make: (i) => i.jpeg(QUALITY) },
  resize: { label: 'resized to half', make: (i, w) => i.resize({ width: Math.max(16, Math.round(w / 2)) }).jpeg(QUALITY) },
  reencode: { label: 'JPEG quality 15', make: (i) => i.jpeg({ quality: 15 }) },
  greyscale: { label: 'greyscale', make: (i) => i.greyscale().jpeg(QUALITY) },
  brightened: { label: 'brightened 25 %', make: (i) => i.modulate({ brightness: 1.25 }).jpeg(QUALITY) },
  border: {
    label: 'print border (8 %)',
    make: (i, w, h) => {
      const b = Math.max(2, Math.round(0.08 * Math.min(w, h)));
      return i.extend({ top: b, bottom: b, left: b, right: b, background: '#f3efe6' }).jpeg(QUALITY);
    },
  },
  crop5: {
    label: 'cropped 5 % (all sides)',
    make: (i, w, h) =>
      i
        .extract({
          left: Math.round(0.02 * w),
          top: Math.round(0.03 * h),
          width: Math.round(0.95 * w),
          height: Math.round(0.95 * h),
        })
        .jpeg(QUALITY),
  },
  crop5side: {
    label: 'cropped 5 % (one side)',
    make: (i, w, h) =>
      i
        .extract({ left: Math.round(0.05 * w), top: 0, width: w - Math.round(0.05 * w), height: h - Math.round(0.05 * h) })
        .jpeg(QUALITY),
  },
  rotate1: { label: 'rotated 1°', make: (i) => i.rotate(1, { background: '#ffffff' }).jpeg(QUALITY) },
  rotate2: { label: 'rotated 2°', make: (i) => i.rotate(-2, { background: '#ffffff' }).jpeg(QUALITY) },
} satisfies Record<string, { label: string; make: Transform }>;

export type TransformName = keyof typeof TRANSFORMS;
export const TRANSFORM_NAMES = Object.keys(TRANSFORMS) as TransformName[];

/**
 * Every distinct photograph in the corpus. The orientation samples are one picture each (landscape,
 * portrait) written eight ways with the number 1–8 drawn on it: the same photograph, so only the
 * first of each counts as a source.
 */
export function corpusSources(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of fs.readdirSync(dir).sort()) {
      const p = path.join(dir, name);
      if (fs.statSync(p).isDirectory()) walk(p);
      else if (/\.(jpe?g|tiff?)$/i.test(name)) files.push(p);
    }
  };
  walk(CORPUS);
  return files.filter((f) => !/orientation[\\/](landscape|portrait)_[2-8]\./.test(f));
}

/** The copies of one source, each an encoded JPEG. */
export async function makeVariants(
  source: string,
  names: readonly TransformName[] = TRANSFORM_NAMES,
): Promise<Record<TransformName, Buffer>> {
  // As displayed: EXIF orientation applied, transparency on white.
  const shown = await sharp(source).rotate().flatten({ background: '#ffffff' }).png().toBuffer();
  const { width, height } = await sharp(shown).metadata();
  const out = {} as Record<TransformName, Buffer>;
  for (const name of names) out[name] = await TRANSFORMS[name].make(sharp(shown), width!, height!).toBuffer();
  return out;
}
