/**
 * Zoom views of photos that are no longer in the library. A photo's zoom view — its pyramid and
 * the tiles cut on demand, `previews/<sha[0:2]>/<sha>` and `<sha>.cut`, often hundreds of MB for
 * an archival scan — is named by content hash, so it outlived the photo: a removal, or a relink
 * to a changed file, left it on disk for ever.
 *
 * The sweep runs when the library opens and then every hour, on libuv's threads (fs.promises), so
 * main's thread only lists folders and asks, for each view, whether the library still holds it
 * (`holds`, asked just before that view is removed). A view whose removal can still be undone is
 * held; one removed in an earlier session and brought back after a sweep is cut again when it is
 * next looked at (zoom views are made on demand: deleting one loses no data).
 * A pyramid being written (`<sha>.tmp-…`) is the preview job's; it clears its own leftovers.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../logger';

const SHARD = /^[0-9a-f]{2}$/;
const VIEW = /^([0-9a-f]{64})(\.cut)?$/;
const SWEEP_EVERY_MS = 60 * 60_000;

async function names(dir: string): Promise<string[]> {
  try {
    return await fs.readdir(dir);
  } catch {
    return []; // no zoom view was ever made
  }
}

/** Removes the zoom views of hashes the library no longer `holds`; returns the folders removed. */
export async function sweepOrphanedViews(previewsDir: string, holds: (sha256: string) => boolean): Promise<string[]> {
  const removed: string[] = [];
  for (const shard of await names(previewsDir)) {
    if (!SHARD.test(shard)) continue;
    for (const name of await names(path.join(previewsDir, shard))) {
      const sha = VIEW.exec(name)?.[1];
      if (!sha || !sha.startsWith(shard) || holds(sha)) continue;
      const dir = path.join(previewsDir, shard, name);
      try {
        await fs.rm(dir, { recursive: true, force: true });
        removed.push(dir);
      } catch {
        /* in use (Windows) or not ours to remove: next sweep */
      }
    }
  }
  return removed;
}

/**
 * Sweeps now and every hour; `close()` stops the timer and waits for a sweep under way (which
 * removes nothing more: the database may be closing).
 */
export function startOrphanedViewSweep(
  previewsDir: string,
  holds: (sha256: string) => boolean,
  log: Logger,
  everyMs = SWEEP_EVERY_MS,
): { close(): Promise<void> } {
  let closed = false;
  const sweep = () =>
    sweepOrphanedViews(previewsDir, (sha) => closed || holds(sha)).then(
      (removed) => {
        if (removed.length) log.info(`removed the zoom views of ${removed.length} photo(s) no longer in the library`);
      },
      (err: unknown) => log.warn(`zoom views of removed photos could not be swept: ${(err as Error).message}`),
    );
  let running = sweep();
  const timer = setInterval(() => {
    running = running.then(sweep);
  }, everyMs).unref();
  return {
    async close() {
      closed = true;
      clearInterval(timer);
      await running;
    },
  };
}
