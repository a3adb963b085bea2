/**
 * Restoring onto a full disk, with the library itself on a real small disk (a tmpfs): a restore
 * that cannot fit is refused before the library is touched; one whose safety copy or swap runs
 * out of room because the disk fills up meanwhile (another program writing) puts everything back.
 * Each time the library opens again with all its data and a verifying ledger, no temporary file
 * is left, and the message says the disk is full.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CoreHost } from '../../src/main/core/core-host';
import type { Core } from '../../src/main/core/core';
import { silentLogger } from '../../src/main/logger';
import { readBackupFolder } from '../../src/shared/node/backup-folder';
import { openTestCore, tempDir, waitForStatus } from '../support/core';
import { seedPhotos } from '../support/seed';
import { mountSmallDisk, smallDiskUnavailable, type SmallDisk } from '../support/small-disk';

const unavailable = smallDiskUnavailable();
let host: CoreHost | null = null;
let disk: SmallDisk | null = null;
afterEach(async () => {
  await host?.close(500);
  host = null;
  disk?.unmount();
  disk = null;
});

/** A host on a library on the small disk; `when` fills the disk at a chosen moment of the restore. */
function setUp(when: { fillOnClose?: boolean; fillOnReopen?: boolean } = {}) {
  disk = mountSmallDisk(24);
  const d = disk;
  const libraryDir = path.join(d.dir, 'library');
  let opened = 0;
  const h = new CoreHost(
    (overrides) => {
      opened++;
      // The second open is of the restored library, just swapped in.
      if (opened === 2 && when.fillOnReopen) d.fill(0);
      const core: Core = openTestCore({ libraryDir, concurrency: 1, backupSchedule: false, ...overrides });
      const close = core.close.bind(core);
      core.close = async (graceMs) => {
        await close(graceMs);
        if (when.fillOnClose && opened === 1) d.fill(0);
      };
      return core;
    },
    { log: silentLogger },
  );
  h.open();
  host = h;
  return h;
}

const photoCount = (h: CoreHost) => h.current.db.sqlite.prepare('SELECT count(*) FROM photos').pluck().get() as number;

/** A backup of 1,000 photos kept off the small disk, and the library then grown to 1,600. */
async function backupThenMore(h: CoreHost): Promise<string> {
  h.current.settings.update({ backupDir: tempDir() });
  seedPhotos(h.current, 1000, { evidencePerPhoto: 2 });
  const { job } = h.current.jobs.enqueue({ type: 'backup', payload: {} });
  expect((await waitForStatus(h.current, job.id, ['success', 'failed'])).status).toBe('success');
  const [entry] = await readBackupFolder(h.current.settings.get().backupDir!);
  seedPhotos(h.current, 600, { evidencePerPhoto: 2, dir: '/after' });
  return entry.file;
}

/** The library folder holds the library and nothing half-done (no staged copy, no partial safety copy). */
function expectNoLeftovers(h: CoreHost) {
  const { dir, backupsDir } = h.current.paths;
  expect(fs.readdirSync(dir).filter((f) => f.includes('partial') || f.includes('restoring'))).toEqual([]);
  if (fs.existsSync(backupsDir)) expect(fs.readdirSync(backupsDir)).toEqual([]);
}

async function expectLibraryAsItWas(h: CoreHost) {
  expect(photoCount(h)).toBe(1600);
  expect(h.current.ledger.verify().ok).toBe(true);
  const restored = h.current.db.sqlite.prepare("SELECT count(*) FROM audit_events WHERE event = 'library_restored'");
  expect(restored.pluck().get()).toBe(0);
  expect(await h.dispatch('photos.list', { limit: 1 })).toMatchObject({ ok: true, value: { total: 1600 } });
  expectNoLeftovers(h);
}

describe.skipIf(unavailable)(`restore onto a full disk${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  it('a restore that cannot fit is refused before the library is closed, saying how much room it needs', async () => {
    const h = setUp();
    const backup = await backupThenMore(h);
    const before = h.current;
    disk!.fill(fs.statSync(backup).size); // room for the backup's copy, none for a safety copy
    await expect(h.restore(backup)).rejects.toThrow(
      new RegExp(
        `^The disk is full: restoring this backup needs about \\d+(\\.\\d)? MB free in ${h.current.paths.dir}` +
          ` \\(for the restored library and a safety copy of this one\\), and \\d+(\\.\\d)? [KM]B are free\\. ` +
          `Free some space and try again\\. The library was left as it was\\.$`,
      ),
    );
    expect(h.current).toBe(before); // never closed
    await expectLibraryAsItWas(h);
  });

  it('when the disk fills up before the safety copy is written, everything is put back', async () => {
    const h = setUp({ fillOnClose: true });
    const backup = await backupThenMore(h);
    await expect(h.restore(backup)).rejects.toThrow(
      `The disk is full: the safety copy of the library could not be written to ${h.current.paths.backupsDir}. ` +
        'Free some space and try again. The library was left as it was.',
    );
    disk!.unfill();
    await expectLibraryAsItWas(h);
  });

  it('when the disk fills up after the swap and the restored library cannot open, the old one is put back', async () => {
    const h = setUp({ fillOnReopen: true });
    const backup = await backupThenMore(h);
    await expect(h.restore(backup)).rejects.toThrow(
      /^The disk is full: the restored library could not be opened in .*\. Free some space and try again\. The library was left as it was\.$/,
    );
    // Put back with the disk still full: nothing was copied to do it.
    expect(disk!.free()).toBeLessThan(4 * 1024 * 1024);
    await expectLibraryAsItWas(h);
  });
});
