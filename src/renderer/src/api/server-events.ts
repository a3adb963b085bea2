/**
 * Events that carry an answer, written into the cache without a request: `jobs.changed` carries
 * the job counts every badge, tile and indicator shows; `import.progress` carries the running
 * import's snapshot (the library's progress line and the import panel). Registered once for the
 * window by hooks.ts.
 */
import type { ImportProgress } from '../../../shared/contract';
import type { Client } from './client';
import type { QueryCache } from './query-cache';

const done = (p: ImportProgress) => p.status !== 'running';

/** Events can cross an answer in flight: never let an older import snapshot replace a newer one. */
export function newerImport(old: ImportProgress | null, next: ImportProgress | null): ImportProgress | null {
  if (!next) return old;
  if (!old || next.id > old.id) return next;
  if (next.id < old.id) return old;
  if (done(old) && !done(next)) return old;
  return next;
}

export function writeEventsIntoCache(client: Client, cache: QueryCache): void {
  client.on('jobs.changed', ({ counts, paused, unseenFailed }) =>
    cache.setData('jobs.counts', {}, { counts, paused, unseenFailed }),
  );
  cache.mergeAnswers('photos.importStatus', (old, answer) =>
    newerImport((old as ImportProgress | null | undefined) ?? null, answer as ImportProgress | null),
  );
  client.on('import.progress', (e) => cache.update('photos.importStatus', {}, e));
}
