/**
 * Restoring a backup through the CoreHost with real files and real worker processes: the library
 * is swapped and reopened, running jobs of the backup are queued again, the restore is in the
 * audit ledger (which still verifies), missing thumbnails are queued, and every failure leaves the
 * library as it was.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { CoreHost } from '../../src/main/core/core-host';
import { silentLogger } from '../../src/main/logger';
import { readBackupFolder } from '../../src/shared/node/backup-folder';
import { openTestCore, tempDir, waitFor, waitForStatus } from '../support/core';
import { seedPhotos } from '../support/seed';

let hosts: CoreHost[] = [];
afterEach(async () => {
  for (const h of hosts) await h.close(500);
  hosts = [];
});

function host(libraryDir = tempDir()) {
  const h = new CoreHost((overrides) => openTestCore({ libraryDir, concurrency: 2, ...overrides }), { log: silentLogger });
  h.open();
  hosts.push(h);
  return h;
}

const photoCount = (h: CoreHost) => h.current.db.sqlite.prepare('SELECT count(*) FROM photos').pluck().get() as number;

async function backUp(h: CoreHost): Promise<string> {
  const { job } = h.current.jobs.enqueue({ type: 'backup', payload: {} });
  expect((await waitForStatus(h.current, job.id, ['success', 'failed'])).status).toBe('success');
  return (await readBackupFolder(h.current.paths.backupsDir))[0].file;
}

describe('restore', () => {
  it('swaps in the backup, requeues what was running in it, records itself and reopens', async () => {
    const h = host();
    seedPhotos(h.current, 200);
    const { job: long } = h.current.jobs.enqueue({ type: 'diag.sleep', payload: { ms: 60_000, key: 'long' } });
    await waitForStatus(h.current, long.id, ['running']);
    const backup = await backUp(h);
    h.current.jobs.cancel(long.id);
    seedPhotos(h.current, 50, { dir: '/later' });
    const events: string[] = [];
    h.events.subscribe((name) => events.push(name));

    const report = await h.restore(backup);
    expect(report).toMatchObject({ restoredFrom: backup, photos: 200, thumbnailsQueued: 0 });
    expect(report.requeued).toBe(1); // the long job
    expect(photoCount(h)).toBe(200);
    // The job that was running in the backup runs again, uncharged, with the restore in its trail.
    const trail = h.current.jobs.queries.auditTrail(long.id).map((a) => a.event);
    expect(trail).toContain('requeued_after_restore');
    expect(h.current.jobs.queries.get(long.id)).toMatchObject({ retry_count: 0 });
    expect(['queued', 'running']).toContain(h.current.jobs.queries.get(long.id)!.status);
    // Recorded in the ledger, which verifies.
    const restored = h.current.db.sqlite.prepare("SELECT data FROM audit_events WHERE event = 'library_restored'").pluck().get();
    expect(JSON.parse(restored as string)).toMatchObject({ from: backup, photos: 200 });
    expect(h.current.ledger.verify().ok).toBe(true);
    // The library before the restore is kept, whole.
    const safety = new Database(report.safetyCopy!, { readonly: true });
    expect(safety.prepare('SELECT count(*) FROM photos').pluck().get()).toBe(250);
    safety.close();
    expect((await readBackupFolder(h.current.paths.backupsDir)).map((e) => e.reason)).toContain('before-restore');
    // The transports were told, and calls reach the new core.
    expect(events).toEqual(expect.arrayContaining(['photos.changed', 'jobs.changed', 'backups.changed']));
    const r = await h.dispatch('photos.list', { limit: 1 });
    expect(r).toMatchObject({ ok: true, value: { total: 200 } });
    h.current.jobs.cancel(long.id);
    // The backup job that took the snapshot was running in it too: it is recorded as done, not run again.
    const [taker] = h.current.jobs.queries.list({ types: ['backup'], limit: 1 }).rows;
    expect(taker).toMatchObject({ status: 'success', result_summary: `Restored from this backup (${path.basename(backup)})` });
    expect(h.current.jobs.queries.auditTrail(taker.id).at(-1)).toMatchObject({ event: 'succeeded', actor: 'user' });
  });

  it('queues the metadata job of photos whose thumbnail is missing', async () => {
    const h = host();
    const [a, b] = seedPhotos(h.current, 2);
    const thumbs = h.current.paths.thumbnailsDir;
    fs.mkdirSync(path.join(thumbs, 'ab'), { recursive: true });
    fs.writeFileSync(path.join(thumbs, 'ab', 'present.jpg'), 'jpeg');
    const setThumb = h.current.db.sqlite.prepare('UPDATE photos SET thumbnail = ? WHERE id = ?');
    setThumb.run('thumbnails/ab/present.jpg', a);
    setThumb.run('thumbnails/cd/missing.jpg', b);
    const backup = await backUp(h);
    const report = await h.restore(backup);
    expect(report.thumbnailsQueued).toBe(1);
    const queued = h.current.jobs.queries.list({ types: ['metadata'], limit: 5 }).rows;
    expect(queued.map((j) => JSON.parse(j.payload))).toEqual([{ photoId: b }]);
  });

  it('refuses what is not a Circa backup, or is newer than this app, and leaves the library as it was', async () => {
    const h = host();
    seedPhotos(h.current, 5);
    const junk = path.join(tempDir(), 'holiday.jpg');
    fs.writeFileSync(junk, 'not a database at all');
    await expect(h.restore(junk)).rejects.toThrow(`${junk} is not a Circa backup (not a SQLite database)`);
    const plain = path.join(tempDir(), 'other.db');
    new Database(plain).exec('CREATE TABLE notes (x)');
    await expect(h.restore(plain)).rejects.toThrow(/is not a Circa library \(no photos, evidence/);

    const backup = await backUp(h);
    const newer = path.join(tempDir(), 'newer.db');
    fs.copyFileSync(backup, newer);
    const n = new Database(newer);
    n.prepare('INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)').run('future', 9_999_999_999_999);
    n.close();
    await expect(h.restore(newer)).rejects.toThrow(/written by a newer version of Circa/);
    expect(photoCount(h)).toBe(5);
    expect((await h.dispatch('jobs.counts', {})).ok).toBe(true);
  });

  it("a backup from before signing or of another library is re-anchored under this library's key, on record; one changed after it was signed is refused", async () => {
    const other = host();
    seedPhotos(other.current, 3);
    const foreign = await backUp(other);
    const h = host();
    seedPhotos(h.current, 5);

    // Tampered after this library signed it: the last audit event removed (its guard dropped first).
    const own = await backUp(h);
    const tampered = path.join(tempDir(), 'circa-tampered.db');
    fs.copyFileSync(own, tampered);
    const t = new Database(tampered);
    t.exec('DROP TRIGGER audit_events_no_delete');
    t.prepare('DELETE FROM audit_events WHERE id = (SELECT max(id) FROM audit_events)').run();
    t.close();
    await expect(h.restore(tampered)).rejects.toThrow(
      /The audit ledger in .*circa-tampered\.db was changed after Circa signed it/,
    );
    expect(photoCount(h)).toBe(5);

    // As a backup taken before the ledger was signed (a pre-migration backup of an older library).
    const unsigned = path.join(tempDir(), 'circa-unsigned.db');
    fs.copyFileSync(own, unsigned);
    const u = new Database(unsigned);
    u.exec('DROP TRIGGER audit_events_no_update');
    u.exec('UPDATE audit_events SET mac = NULL; UPDATE audit_head SET mac = NULL');
    u.close();
    await h.restore(unsigned);
    const anchored = h.current.db.sqlite.prepare("SELECT data FROM audit_events WHERE event = 'audit.reanchored'").pluck().get();
    expect(JSON.parse(anchored as string).reason).toMatch(
      /^restored from circa-unsigned\.db: it was taken before the ledger was signed/,
    );
    expect(h.current.ledger.verify().ok).toBe(true);

    // Another library's backup replaces all of that; its ledger is re-anchored in turn.
    const report = await h.restore(foreign);
    expect(report.photos).toBe(3);
    const reanchored = h.current.db.sqlite
      .prepare("SELECT data FROM audit_events WHERE event = 'audit.reanchored'")
      .pluck()
      .get();
    expect(JSON.parse(reanchored as string).reason).toMatch(/^restored from circa-.*: it was signed with another library’s key/);
    const verified = h.current.ledger.verify();
    expect(verified.ok).toBe(true);
    expect(verified.notes.join('\n')).toMatch(/re-anchored/);
  });

  it('when another process has the library open, puts everything back and says so', async () => {
    const h = host();
    seedPhotos(h.current, 5);
    const backup = await backUp(h);
    seedPhotos(h.current, 3, { dir: '/more' });
    const other = new Database(h.current.paths.dbFile);
    other.prepare('SELECT count(*) FROM photos').get(); // holds the WAL open like a headless runner
    try {
      await expect(h.restore(backup)).rejects.toThrow(
        /Another Circa process .* has this library open; close it and try again\. The library was left as it was\./,
      );
    } finally {
      other.close();
    }
    await waitFor(() => h.current, 5000, 'the library to reopen');
    expect(photoCount(h)).toBe(8);
    expect(h.current.ledger.verify().ok).toBe(true);
  });

  it('through the contract: backups.list shows the backups, backups.restore restores one by name', async () => {
    const h = host();
    seedPhotos(h.current, 7);
    await backUp(h);
    seedPhotos(h.current, 2, { dir: '/more' });
    const list = await h.dispatch('backups.list', {});
    expect(list).toMatchObject({ ok: true, value: { folder: h.current.paths.backupsDir, problem: null } });
    const [entry] = (list as { value: { items: { name: string; photos: number; verified: boolean; reason: string }[] } }).value
      .items;
    expect(entry).toMatchObject({ photos: 7, verified: true, reason: 'manual' });
    const restored = await h.dispatch('backups.restore', { name: entry.name });
    expect(restored).toMatchObject({ ok: true, value: { photos: 7, thumbnailsQueued: 0 } });
    expect(photoCount(h)).toBe(7);
    expect(await h.dispatch('backups.restore', { name: 'circa-19990101-000000-manual.db' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    // A chosen folder that is not there says so in the list.
    h.current.settings.update({ backupDir: path.join(tempDir(), 'unplugged') });
    const unplugged = await h.dispatch('backups.list', {});
    expect(unplugged).toMatchObject({
      ok: true,
      value: { problem: expect.stringMatching(/not reachable \(is the drive connected\?\)$/) },
    });
  });

  it('a core without a host refuses to restore, with a reason', async () => {
    const core = openTestCore({ runJobs: false });
    try {
      expect(await core.dispatch('backups.restore', { name: 'circa-20260101-000000-manual.db' })).toMatchObject({
        ok: false,
        error: { code: 'conflict', message: expect.stringContaining('circa-worker restore FILE') },
      });
    } finally {
      await core.close();
    }
  });

  it('when the restored library cannot be opened, the safety copy is put back and the old library reopened', async () => {
    const libraryDir = tempDir();
    let failNextOpen = false;
    const h = new CoreHost(
      (overrides) => {
        if (failNextOpen) {
          failNextOpen = false;
          throw new Error('disk went away');
        }
        return openTestCore({ libraryDir, concurrency: 1, ...overrides });
      },
      { log: silentLogger },
    );
    h.open();
    hosts.push(h);
    seedPhotos(h.current, 4);
    const backup = await backUp(h);
    seedPhotos(h.current, 2, { dir: '/after' });
    failNextOpen = true;
    await expect(h.restore(backup)).rejects.toThrow(
      'The backup could not be restored: disk went away. The library was left as it was.',
    );
    expect(photoCount(h)).toBe(6);
    expect(h.current.ledger.verify().ok).toBe(true);
    expect(h.current.db.sqlite.prepare("SELECT count(*) FROM audit_events WHERE event = 'library_restored'").pluck().get()).toBe(
      0,
    );
  });
});
