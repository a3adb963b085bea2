/**
 * The `backup` job end to end (real core, real worker processes): a verified snapshot while the
 * library is being written, rotation that leaves older backups intact, a clear failure for a
 * folder that cannot be reached, and nothing under a final name when a backup is cut off.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { backupHandler } from '../../src/worker/handlers/backup';
import { takeSnapshot } from '../../src/main/backup/snapshot';
import { readBackupFolder } from '../../src/shared/node/backup-folder';
import { inspectLibraryFile } from '../../src/shared/node/library-file';
import { partialNameFor } from '../../src/shared/backup/manifest';
import { openTestCore, tempDir, waitForStatus } from '../support/core';
import { seedPhotos } from '../support/seed';
import { backupJobInput } from '../support/backup-input';

let cores: Core[] = [];
afterEach(async () => {
  for (const c of cores) await c.close();
  cores = [];
});
const open = (opts: Parameters<typeof openTestCore>[0] = {}) => {
  const c = openTestCore({ concurrency: 1, ...opts });
  cores.push(c);
  return c;
};

async function backUp(core: Core, payload: object = {}) {
  const { job } = core.jobs.enqueue({ type: 'backup', payload });
  return waitForStatus(core, job.id, ['success', 'failed', 'cancelled']);
}

describe('backup job', () => {
  it('writes a verified snapshot into backups/ while the library is being written', async () => {
    const core = open();
    seedPhotos(core, 3000, { evidencePerPhoto: 2 });
    const note = core.db.sqlite.prepare('UPDATE photos SET notes = ? WHERE id = (SELECT min(id) FROM photos)');
    let writes = 0;
    const timer = setInterval(() => core.db.immediate(() => note.run(`edit ${writes++}`)), 2);
    const row = await backUp(core).finally(() => clearInterval(timer));
    expect(row.status, row.error_message ?? '').toBe('success');
    expect(row.result_summary).toMatch(/^circa-\d{8}-\d{6}-manual\.db: 3,000 photos, .* verified$/);
    expect(writes).toBeGreaterThan(0);

    const [entry] = await readBackupFolder(core.paths.backupsDir);
    expect(entry).toMatchObject({ reason: 'manual', verified: true, photos: 3000 });
    const report = inspectLibraryFile(entry.file);
    expect(report.counts).toEqual(entry.manifest!.counts);
    expect(report.counts.evidence).toBe(6000);
    // Nothing but the backup and its manifest: no partial, no WAL.
    expect(fs.readdirSync(core.paths.backupsDir).sort()).toEqual([entry.name, `${entry.name}.json`]);
  });

  it('rotates by the policy and keeps older backups intact', async () => {
    const core = open();
    seedPhotos(core, 10);
    core.settings.update({ backupKeepDaily: 1, backupKeepWeekly: 0 });
    // An old routine backup (rotated away) and one taken before a migration (kept).
    const first = await backUp(core);
    expect(first.status).toBe('success');
    const [old] = await readBackupFolder(core.paths.backupsDir);
    const bytes = fs.readFileSync(old.file);
    // A second backup the same day never removes the last other one ("Back up now" used to).
    const second = await backUp(core, { reason: 'scheduled' });
    expect(second.status).toBe('success');
    expect(second.result_summary).not.toContain('removed');
    expect(await readBackupFolder(core.paths.backupsDir)).toHaveLength(2);
    // A third does; its summary names the backup removed and the rule that removed it.
    const third = await backUp(core, { reason: 'scheduled' });
    expect(third.result_summary).toContain(`removed an older backup (${old.name}) by the rule in Settings: After each backup`);
    const after = await readBackupFolder(core.paths.backupsDir);
    expect(after.map((e) => e.reason)).toEqual(['scheduled', 'scheduled']);
    // The backup rotated away was whole until then; the one kept is whole now.
    expect(bytes.subarray(0, 16).toString('latin1')).toBe('SQLite format 3\0');
    expect(inspectLibraryFile(after[0].file).counts.photos).toBe(10);
  });

  it('a backup folder that cannot be reached fails the job with a clear message', async () => {
    const core = open();
    core.settings.update({ backupDir: path.join(tempDir(), 'unplugged-drive') });
    const row = await backUp(core);
    expect(row.status).toBe('failed');
    expect(row.error_message).toMatch(/^The backup folder .*unplugged-drive is not reachable \(is the drive connected\?\)$/);
    expect(row.retry_count).toBe(0); // permanent: no retry can plug the drive in
    // The app is fine: another call answers.
    expect((await core.dispatch('jobs.counts', {})).ok).toBe(true);
  });

  it('a backup cut off before it is published leaves nothing under a final name', async () => {
    const core = open({ runJobs: false });
    seedPhotos(core, 50);
    const dir = tempDir();
    const final = path.join(dir, 'circa-20260101-000000-manual.db');
    const temp = path.join(dir, partialNameFor(path.basename(final)));
    const snap = await takeSnapshot({ source: core.paths.dbFile, dest: temp });
    const abort = new AbortController();
    const input = backupJobInput({ temp, final, snap, libraryDir: core.paths.dir });
    // Cancelled while it verifies.
    const ctx = { jobId: 1, attempt: 1, signal: abort.signal, progress: () => abort.abort(new Error('cancel')) };
    await expect(backupHandler(input, ctx)).rejects.toThrow('cancel');
    expect(fs.readdirSync(dir)).toEqual([]);

    // A snapshot whose counts do not match is not published either.
    await takeSnapshot({ source: core.paths.dbFile, dest: temp });
    const wrong = { ...input, manifest: { ...input.manifest, counts: { ...snap.counts, photos: 49 } } };
    const quiet = { ...ctx, signal: new AbortController().signal, progress: () => {} };
    await expect(backupHandler(wrong, quiet)).rejects.toThrow('The snapshot did not verify: photos 50 (expected 49)');
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('a partial left by a killed backup is never listed and is cleared by the next backup', async () => {
    const core = open();
    fs.mkdirSync(core.paths.backupsDir, { recursive: true });
    const stale = path.join(core.paths.backupsDir, partialNameFor('circa-20200101-000000-manual.db'));
    fs.writeFileSync(stale, 'half a database');
    const past = new Date(Date.now() - 3600_000);
    fs.utimesSync(stale, past, past);
    expect(await readBackupFolder(core.paths.backupsDir)).toEqual([]);
    expect((await backUp(core)).status).toBe('success');
    expect(fs.existsSync(stale)).toBe(false);
  });
});
