/**
 * The bare loop's worker (see import.ts): per file, with no queue and no database, either
 *  - `same-work`: Circa's own metadata extraction called directly (hash, header, EXIF, one decode,
 *    the thumbnail and the duplicate hashes), the per-file work Circa's workers do; or
 *  - `minimal`: hash + exifr + one sharp thumbnail pipeline, a lower bound on any importer's work.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import exifr from 'exifr';
import sharp from 'sharp';
import { extractPhotoMetadata } from '../src/worker/imaging/metadata';
import { MAX_FILE_BYTES, MAX_INPUT_PIXELS } from '../src/shared/jobs/types/metadata';

// As in Circa's workers (src/worker/handlers/metadata.ts). Its parent sets it to their priority
// (_import-sides.ts): on a busy host a loop at normal priority took CPU Circa's workers yield to
// everyone, and the ratio measured scheduling as much as work.
sharp.concurrency(1);
sharp.cache(false);

export type BareWork = 'same-work' | 'minimal';

async function minimal(file: string, out: string): Promise<void> {
  const bytes = await fs.promises.readFile(file);
  const sha = crypto.createHash('sha256').update(bytes).digest('hex');
  await exifr.parse(bytes, { reviveValues: false });
  await sharp(bytes)
    .rotate()
    .resize(512, 512, { fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: 80 })
    .toFile(path.join(out, `${sha}.jpg`));
}

async function sameWork(file: string, out: string, k: number): Promise<void> {
  await extractPhotoMetadata({
    path: file,
    expected: null,
    thumbnailPath: path.join(out, String(k % 256), path.basename(file)), // sharded, as Circa's are
    maxFileBytes: MAX_FILE_BYTES,
    maxInputPixels: MAX_INPUT_PIXELS,
  });
}

process.on('message', async (m: { files: string[]; out: string; work: BareWork }) => {
  for (const [k, file] of m.files.entries()) {
    if (m.work === 'minimal') await minimal(file, m.out);
    else await sameWork(file, m.out, k);
  }
  process.send!({ done: true });
});
process.send!({ ready: true });
