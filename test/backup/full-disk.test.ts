/**
 * Backups onto a disk that fills up, on a real small disk (a tmpfs): the job fails with a plain
 * "the disk is full" message, nothing appears under a final name, the partial file is gone, the
 * older backups in the folder are untouched and still verify, and the app keeps answering.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import path from 'node:path';
import type { Core } from '../../src/main/core/core';
import { takeSnapshot } from '../../src/main/backup/snapshot';
import { backupHandler } from '../../src/worker/handlers/backup';
import { partialNameFor } from '../../src/shared/backup/manifest';
import { readBackupFolder } from '../../src/shared/node/backup-folder';
import { inspectLibraryFile } from '../../src/shared/node/library-file';
import { openTestCore, waitForStatus } from '../support/core';
import { seedPhotos } from '../support/seed';
import { mountSmallDisk, smallDiskUnavailable, type SmallDisk } from '../support/small-disk';
import { backupJobInput } from '../support/backup-input';

const unavailable = smallDiskUnavailable();
let core: Core | null = null;
let disk: SmallDisk | null = null;
afterEach(async () => {
  await core?.close();
  core = null;
  disk?.unmount();
  disk = null;
});

const sha = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

async function backUp(c: Core) {
  const { job } = c.jobs.enqueue({ type: 'backup', payload: {} });
  return waitForStatus(c, job.id, ['success', 'failed', 'cancelled']);
}

describe.skipIf(unavailable)(`backup onto a full disk${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  // How much room is left when the backup starts: none at all, part of the copy, all of it but its last pages.
  it.each([
    ['no room at all', () => 0],
    ['room for half the copy', (dbBytes: number) => Math.floor(dbBytes / 2)],
    ['room for all but the end of the copy', (dbBytes: number) => dbBytes - 8192],
    ['room for the copy but not its manifest', (dbBytes: number) => dbBytes],
  ])('%s: a plain failure, nothing under a final name, older backups intact', async (_what, room) => {
    disk = mountSmallDisk(16);
    core = openTestCore({ concurrency: 1, backupSchedule: false });
    core.settings.update({ backupDir: disk.dir });
    seedPhotos(core, 1500, { evidencePerPhoto: 2 });
    const first = await backUp(core);
    expect(first.status, first.error_message ?? '').toBe('success');
    const [older] = await readBackupFolder(disk.dir);
    const olderSha = sha(older.file);

    seedPhotos(core, 1500, { evidencePerPhoto: 2, dir: '/more' });
    core.db.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    const dbBytes = fs.statSync(core.paths.dbFile).size;
    disk.fill(room(dbBytes));
    const row = await backUp(core);

    expect(row.status).toBe('failed');
    expect(row.error_message).toBe(
      `The disk is full: the backup did not fit in ${disk.dir}. Free some space there or choose another backup folder.`,
    );
    expect(row.retry_count).toBe(0); // a retry cannot free space
    // Only the older backup and its manifest (and the test's filler): no partial, no new final name.
    expect(
      fs
        .readdirSync(disk.dir)
        .filter((f) => f !== 'filler.bin')
        .sort(),
    ).toEqual([older.name, `${older.name}.json`]);
    expect(sha(older.file)).toBe(olderSha);
    const [still] = await readBackupFolder(disk.dir);
    expect(still).toMatchObject({ name: older.name, verified: true, photos: 1500 });
    expect(inspectLibraryFile(older.file).counts.photos).toBe(1500);
    // The app goes on: calls answer, and with space freed the next backup works.
    expect((await core.dispatch('jobs.counts', {})).ok).toBe(true);
    disk.unfill();
    const again = await backUp(core);
    expect(again.status, again.error_message ?? '').toBe('success');
  });

  it('a disk that fills up after the snapshot (while the worker publishes it): the same plain failure, the partial removed', async () => {
    disk = mountSmallDisk(8);
    core = openTestCore({ concurrency: 1, runJobs: false });
    seedPhotos(core, 300);
    const final = path.join(disk.dir, 'circa-20260101-000000-manual.db');
    const temp = path.join(disk.dir, partialNameFor(path.basename(final)));
    const snap = await takeSnapshot({ source: core.paths.dbFile, dest: temp });
    disk.fill(); // another program took the rest of the disk
    const input = backupJobInput({ temp, final, snap, libraryDir: core.paths.dir });
    const ctx = { jobId: 1, attempt: 1, signal: new AbortController().signal, progress: () => {} };
    await expect(backupHandler(input, ctx)).rejects.toThrow(
      `The disk is full: the backup did not fit in ${disk.dir}. Free some space there or choose another backup folder.`,
    );
    expect(fs.readdirSync(disk.dir)).toEqual(['filler.bin']); // no backup, no manifest, no partial of either
  });
});
