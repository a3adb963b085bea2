/** When a scheduled backup is due, and that a failing folder is not retried every few minutes. */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { BackupScheduler } from '../../src/main/backup/scheduler';
import { backupFolderOf } from '../../src/main/backup/backup-folder';
import { silentLogger } from '../../src/main/logger';
import { openTestCore, tempDir, waitForStatus } from '../support/core';

const DAY = 86_400_000;
let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

function scheduler(c: Core, now: () => number) {
  return new BackupScheduler({
    settings: c.settings,
    jobs: c.jobs,
    folder: () => backupFolderOf(c.settings, c.paths),
    log: silentLogger,
    now,
  });
}

describe('BackupScheduler', () => {
  it('a missed daily backup runs at the next check; then nothing is due until a day has passed', async () => {
    core = openTestCore({ concurrency: 1 });
    let now = Date.now();
    const s = scheduler(core, () => now);
    expect(await s.check()).toBe('enqueued'); // no backup yet: missed
    const [job] = core.jobs.queries.list({ types: ['backup'], limit: 5 }).rows;
    expect(JSON.parse(job.payload)).toEqual({ reason: 'scheduled' });
    expect(core.jobs.queries.auditTrail(job.id)[0]).toMatchObject({ event: 'enqueued', actor: 'schedule' });
    expect(await s.check()).toBe('waiting'); // one at a time
    expect((await waitForStatus(core, job.id, ['success', 'failed'])).status).toBe('success');
    expect(await s.check()).toBe('not_due');
    now += DAY + 60_000;
    expect(await s.check()).toBe('enqueued');
  });

  it('weekly waits a week; off never backs up', async () => {
    core = openTestCore({ runJobs: false });
    core.settings.update({ backupSchedule: 'off' });
    const now = Date.now();
    expect(await scheduler(core, () => now).check()).toBe('off');
    core.settings.update({ backupSchedule: 'weekly' });
    expect(await scheduler(core, () => now).check()).toBe('enqueued');
  });

  it('an unreachable folder fails its job and is tried again an hour later, not at every check', async () => {
    core = openTestCore({ concurrency: 1 });
    core.settings.update({ backupDir: path.join(tempDir(), 'gone') });
    let now = Date.now();
    const s = scheduler(core, () => now);
    expect(await s.check()).toBe('enqueued');
    const [job] = core.jobs.queries.list({ types: ['backup'], limit: 1 }).rows;
    expect((await waitForStatus(core, job.id, ['failed'])).error_message).toMatch(/not reachable/);
    now += 10 * 60_000;
    expect(await s.check()).toBe('waiting');
    now += 60 * 60_000;
    expect(await s.check()).toBe('enqueued');
  });
});
