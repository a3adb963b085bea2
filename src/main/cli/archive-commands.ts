/**
 * `circa-worker backup` and `circa-worker restore FILE`: the same backup job and restore procedure
 * as the app, without it. `backup` runs a runner that claims only its own job; `restore` refuses
 * while the app or a runner has the library open (the procedure checks), then leaves the library
 * closed, with the jobs that were running in the backup queued for the next runner.
 */
import type { Core, CoreOptions } from '../core/core';
import { openCore } from '../core/core';
import { libraryPaths } from '../library/paths';
import type { Logger } from '../logger';
import type { SpawnWorker } from '../jobs/worker-process';
import { restoreLibrary, RestoreError } from '../backup/restore';
import { queueMissingThumbnails } from '../photos/thumbnail-check';

const noWorkers: SpawnWorker = () => {
  throw new Error('this command runs no jobs');
};

export async function backupCommand(o: { libraryDir: string; spawn: SpawnWorker; log: Logger }): Promise<number> {
  const core = openCore({
    libraryDir: o.libraryDir,
    mode: 'headless',
    spawn: o.spawn,
    concurrency: 1,
    runner: { onlyTypes: ['backup'] },
    backupSchedule: false,
    log: o.log,
  });
  try {
    const { job, created } = core.jobs.enqueue({ type: 'backup', payload: {} }, 'cli');
    if (!created) o.log.info(`a backup is already ${job.status} (job ${job.id}); waiting for it`);
    const row = await finished(core, job.id);
    if (row.status === 'success') {
      console.log(`backup done: ${row.result_summary}`);
      return 0;
    }
    console.error(`backup ${row.status}: ${row.error_message ?? 'no reason given'}`);
    return 1;
  } finally {
    await core.close();
  }
}

async function finished(core: Core, id: number) {
  for (;;) {
    const row = core.jobs.queries.get(id)!;
    if (row.status === 'success' || row.status === 'failed' || row.status === 'cancelled') return row;
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function restoreCommand(o: {
  libraryDir: string;
  file: string;
  log: Logger;
  nativeBinding?: string;
}): Promise<number> {
  let core: Core | null = null;
  const options: CoreOptions = { libraryDir: o.libraryDir, mode: 'headless', spawn: noWorkers, runJobs: false, log: o.log };
  try {
    const report = await restoreLibrary({
      file: o.file,
      paths: libraryPaths(o.libraryDir),
      log: o.log,
      nativeBinding: o.nativeBinding,
      actor: 'cli',
      closeLive: async () => {},
      openLive: () => void (core = openCore(options)),
    });
    const thumbnails = await queueMissingThumbnails(core!, 'cli');
    console.log(
      `restored ${report.photos} photos from ${report.restoredFrom} (schema ${report.schemaBefore} → ${report.schemaAfter}); ` +
        `${report.requeued} job(s) that were running queued again; ${thumbnails} thumbnail(s) queued to be made again` +
        (report.safetyCopy ? `\nthe library as it was is kept as ${report.safetyCopy}` : ''),
    );
    return 0;
  } catch (err) {
    console.error(err instanceof RestoreError ? err.message : `restore failed: ${(err as Error).message}`);
    return 1;
  } finally {
    await (core as Core | null)?.close();
  }
}
