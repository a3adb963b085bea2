/**
 * Thumbnails are not backed up (they can be made again), so a restored library — or one whose
 * thumbnails/ folder was lost — has photos whose thumbnail file is missing. This finds them and
 * queues their `metadata` job, which writes the thumbnail again. The folder is listed once
 * (asynchronously) and the photos are read in short chunks, so main stays responsive.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { LibraryDb } from '../db/open';
import type { LibraryPaths } from '../library/paths';
import type { JobService } from '../jobs/service';

const CHUNK = 2000;

export async function queueMissingThumbnails(
  core: { db: LibraryDb; paths: LibraryPaths; jobs: JobService },
  actor = 'system',
): Promise<number> {
  let files: string[];
  try {
    files = (await fs.readdir(core.paths.thumbnailsDir, { recursive: true })) as string[];
  } catch {
    files = [];
  }
  const present = new Set(files.map((f) => path.join(core.paths.thumbnailsDir, f)));
  const page = core.db.sqlite.prepare(
    'SELECT id, thumbnail FROM photos WHERE id > ? AND thumbnail IS NOT NULL ORDER BY id LIMIT ?',
  );
  let after = 0;
  let queued = 0;
  for (;;) {
    const rows = page.all(after, CHUNK) as { id: number; thumbnail: string }[];
    if (!rows.length) return queued;
    after = rows[rows.length - 1].id;
    const missing = rows.filter((r) => !present.has(path.resolve(core.paths.dir, r.thumbnail)));
    if (missing.length) {
      const out = core.jobs.enqueueMany(
        missing.map((r) => ({ type: 'metadata', payload: { photoId: r.id } })),
        actor,
      );
      queued += out.filter((o) => o.created).length;
    }
    await new Promise((r) => setImmediate(r));
  }
}
