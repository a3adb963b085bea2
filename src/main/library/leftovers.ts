/**
 * What a crash (kill -9, power loss) leaves in a library's folders, swept when the library opens
 * instead of waiting for the next run of whatever wrote it:
 *  - backups cut off: `.circa-….db.partial` (hundreds of MB) and SQLite's `.partial-journal`
 *    beside it, in the library's backups/ and in a chosen backup folder;
 *  - a restore cut off: `.circa.db.restoring.partial` (and its journal) in the library folder;
 *  - thumbnails cut off: `thumbnails/<shard>/<name>.tmp-<hex>`.
 * Another process may share the library (a headless runner) and be writing one of these right
 * now, so a file touched within `quietMs` is left for a second look once that much time has passed.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../logger';

/** A hidden partial (backup or restore) or SQLite's journal, WAL or shared memory beside one. */
const PARTIAL = /^\..+\.partial(-journal|-wal|-shm)?$/;
const THUMBNAIL_TEMP = /\.tmp-[0-9a-f]+$/;

export interface LeftoverPlaces {
  libraryDir: string;
  thumbnailsDir: string;
  /** The library's backups/ and, if the archivist chose one, that folder. */
  backupDirs: string[];
}

export interface SweepResult {
  removed: string[];
  /** Leftover-looking files touched too recently to be sure nothing is writing them. */
  fresh: string[];
}

async function names(dir: string): Promise<string[]> {
  try {
    return await fs.readdir(dir);
  } catch {
    return []; // not there (yet), or a backup drive that is not plugged in
  }
}

export async function sweepLeftovers(places: LeftoverPlaces, quietMs: number, now = Date.now()): Promise<SweepResult> {
  const candidates: string[] = [];
  for (const dir of [places.libraryDir, ...places.backupDirs])
    for (const name of await names(dir)) if (PARTIAL.test(name)) candidates.push(path.join(dir, name));
  for (const shard of await names(places.thumbnailsDir)) {
    const dir = path.join(places.thumbnailsDir, shard);
    for (const name of await names(dir)) if (THUMBNAIL_TEMP.test(name)) candidates.push(path.join(dir, name));
  }
  const result: SweepResult = { removed: [], fresh: [] };
  for (const file of candidates) {
    try {
      const st = await fs.lstat(file);
      if (!st.isFile()) continue;
      if (now - st.mtimeMs < quietMs) {
        result.fresh.push(file);
        continue;
      }
      await fs.rm(file, { force: true });
      result.removed.push(file);
    } catch {
      /* gone already, or not ours to remove */
    }
  }
  return result;
}

/**
 * Sweeps now, and once more after `quietMs` if something was too fresh to judge. `close()` stops
 * the second look and waits for a sweep under way.
 */
export function startLeftoverSweep(places: LeftoverPlaces, log: Logger, quietMs = 60_000): { close(): Promise<void> } {
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  const report = (r: SweepResult) => {
    if (r.removed.length)
      log.info(
        `removed ${r.removed.length} file(s) left by an interrupted backup, restore or thumbnail: ${r.removed.join(', ')}`,
      );
  };
  let running = sweepLeftovers(places, quietMs)
    .then((r) => {
      report(r);
      if (r.fresh.length && !closed) {
        timer = setTimeout(() => {
          timer = null;
          running = sweepLeftovers(places, quietMs).then(report, () => undefined);
        }, quietMs);
        timer.unref();
      }
    })
    .catch((err: unknown) => log.warn(`leftover files could not be swept: ${(err as Error).message}`));
  return {
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
