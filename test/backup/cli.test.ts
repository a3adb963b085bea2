/** `circa-worker backup`, `circa-worker restore FILE` and `verify-audit` on the result, as OS processes. */
import { describe, expect, it } from 'vitest';
import { readBackupFolder } from '../../src/shared/node/backup-folder';
import { libraryPaths } from '../../src/main/library/paths';
import { openTestCore, rawDb, startRunner, tempDir } from '../jobs/helpers';
import { seedPhotos } from '../support/seed';

describe('circa-worker backup / restore', () => {
  it('backs up, restores the backup over a changed library, and the audit ledger still verifies', async () => {
    const dir = tempDir();
    const core = openTestCore({ libraryDir: dir, runJobs: false });
    seedPhotos(core, 30);
    // A queued job of another type: `backup` must not run it.
    const { job } = core.jobs.enqueue({ type: 'diag.sleep', payload: { ms: 0 } });
    await core.close();

    const backup = startRunner(['backup', '--library', dir]);
    expect(await backup.exited, backup.output()).toEqual({ code: 0, signal: null });
    expect(backup.output()).toMatch(/backup done: circa-\d{8}-\d{6}-manual\.db: 30 photos, .*, verified/);
    const [entry] = await readBackupFolder(libraryPaths(dir).backupsDir);
    expect(entry).toMatchObject({ verified: true, photos: 30 });
    const raw = rawDb(dir);
    expect(raw.prepare('SELECT status FROM background_jobs WHERE id = ?').pluck().get(job.id)).toBe('queued');
    raw.prepare('DELETE FROM photos WHERE id IN (SELECT id FROM photos LIMIT 10)').run();
    raw.close();

    const restore = startRunner(['restore', entry.file, '--library', dir]);
    expect(await restore.exited, restore.output()).toEqual({ code: 0, signal: null });
    expect(restore.output()).toContain(`restored 30 photos from ${entry.file}`);
    expect(restore.output()).toMatch(/the library as it was is kept as .*before-restore\.db/);
    const after = rawDb(dir);
    expect(after.prepare('SELECT count(*) FROM photos').pluck().get()).toBe(30);
    after.close();

    const verify = startRunner(['verify-audit', '--library', dir]);
    expect(await verify.exited).toEqual({ code: 0, signal: null });
    expect(verify.output()).toMatch(/audit ledger OK: \d+ events verified/);
  });

  it('restore of something that is not a backup exits 1 with the reason', async () => {
    const dir = tempDir();
    await openTestCore({ libraryDir: dir, runJobs: false }).close();
    const r = startRunner(['restore', '/no/such/backup.db', '--library', dir]);
    expect(await r.exited).toEqual({ code: 1, signal: null });
    expect(r.output()).toContain('There is no backup at /no/such/backup.db');
  });
});
