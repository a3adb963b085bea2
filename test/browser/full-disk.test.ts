/**
 * The browser-mode server, in its own process with its library on a real small disk (a tmpfs)
 * that is full: a backup, an export and a restore asked for over its socket each fail with "the
 * disk is full", and the process stays alive and answering.
 */
import { afterEach, describe, expect, it } from 'vitest';
import path from 'node:path';
import { openTestCore } from '../support/core';
import { seedPhotos } from '../support/seed';
import { mountSmallDisk, smallDiskUnavailable, type SmallDisk } from '../support/small-disk';
import { call, connect, healthCheck, startServerProcess, type ServerProcess } from '../support/browser-child';

const unavailable = smallDiskUnavailable();
let server: ServerProcess | null = null;
let disks: SmallDisk[] = [];
afterEach(async () => {
  await server?.stop();
  server = null;
  for (const d of disks) d.unmount();
  disks = [];
});

describe.skipIf(unavailable)(`browser mode on a full disk${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  it('a backup, an export and a restore each fail with a plain message; the server keeps answering', async () => {
    disks.push(mountSmallDisk(16), mountSmallDisk(16));
    const [libraryDisk, backupDisk] = disks;
    const libraryDir = path.join(libraryDisk.dir, 'library');
    const seeding = openTestCore({ libraryDir, runJobs: false });
    seedPhotos(seeding, 1000, { evidencePerPhoto: 2 });
    seeding.settings.update({ backupDir: backupDisk.dir });
    await seeding.close();
    server = await startServerProcess(libraryDir, { hosted: true });
    const ws = await connect(server);
    let id = 0;
    const rpc = (name: string, input: unknown) => call(ws, ++id, name, input);
    const enqueue = (type: string, payload: object) => rpc('jobs.enqueue', { type, payload });
    const finished = async (type: string, payload: object) => {
      const jobId = (await enqueue(type, payload)).value.job.id;
      for (;;) {
        const r = await rpc('jobs.get', { id: jobId });
        if (['success', 'failed', 'cancelled'].includes(r.value.status)) return r.value;
        await new Promise((res) => setTimeout(res, 50));
      }
    };

    expect(await finished('backup', {})).toMatchObject({ status: 'success' });
    // The backup and export folder's disk is full.
    backupDisk.fill(0);
    expect(await finished('backup', {})).toMatchObject({
      status: 'failed',
      errorMessage: expect.stringMatching(/^The disk is full: the backup did not fit in /),
    });
    expect(await finished('export', { destination: backupDisk.dir, formats: ['csv', 'json'] })).toMatchObject({
      status: 'failed',
      errorMessage: expect.stringMatching(/^The disk is full: the export did not fit in /),
    });
    // The library's own disk is full (its WAL may still have room for small writes).
    libraryDisk.fill(0);
    const list = await rpc('backups.list', {});
    expect(await rpc('backups.restore', { name: list.value.items[0].name })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/^The disk is full: restoring this backup needs about /) },
    });

    ws.close();
    expect(server.exit).toBeNull();
    libraryDisk.unfill();
    expect(await healthCheck(server)).toMatchObject({ ok: true, value: { counts: expect.objectContaining({ failed: 2 }) } });
  });
});
