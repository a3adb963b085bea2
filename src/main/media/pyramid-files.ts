/**
 * Where a photo's zoom view (its tile pyramid, made by the `preview` job) lives in the library
 * folder, and reading its small manifest. Main only ever reads the manifest and serves single
 * tiles; the pyramid is made by a worker (src/worker/imaging/pyramid.ts writes this layout).
 */
import fs from 'node:fs';
import path from 'node:path';
import { pyramidSchema, type Pyramid } from '../../shared/jobs/types/preview';

/** By content hash, so a photo's view survives a rename or relink and two photos never share one. */
export function pyramidDirFor(previewsDir: string, sha256: string): string {
  return path.join(previewsDir, sha256.slice(0, 2), sha256);
}

/** One tile's file: Deep Zoom's `tiles_files/<level>/<col>_<row>.jpeg`. */
export function tileFileFor(previewsDir: string, sha256: string, level: number, col: number, row: number): string {
  return path.join(pyramidDirFor(previewsDir, sha256), 'tiles_files', String(level), `${col}_${row}.jpeg`);
}

/** The published pyramid's manifest (a few hundred bytes), or null when there is none yet. */
export function readPyramid(previewsDir: string, sha256: string): Pyramid | null {
  try {
    const text = fs.readFileSync(path.join(pyramidDirFor(previewsDir, sha256), 'pyramid.json'), 'utf8');
    const parsed = pyramidSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
