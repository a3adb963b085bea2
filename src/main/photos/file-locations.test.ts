/** The check when a library opens, on a real SQLite file: a drive that is not plugged in. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuditLedger } from '../audit/ledger';
import { appPaths } from '../app-paths';
import { openDatabase, type LibraryDb } from '../db/open';
import { FileLocations } from './file-locations';

let db: LibraryDb | undefined;
afterEach(async () => {
  await db?.close();
  db = undefined;
});

/** A library of `n` photos whose files are on a drive that is not there; the first `present` exist. */
function library(n: number, present: number) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-locations-'));
  db = openDatabase({ file: path.join(dir, 'circa.db'), migrationsFolder: appPaths().migrations, backgroundCheckpoints: false });
  const insert = db.sqlite.prepare(
    `INSERT INTO photos (sha256, path, filename, size, metadata_status, imported_at, updated_at) VALUES (?, ?, ?, 1, 'ready', 0, 0)`,
  );
  db.immediate(() => {
    for (let i = 0; i < n; i++) {
      const file = i < present ? path.join(dir, `${i}.tif`) : path.join(dir, 'unplugged-drive', `${i}.tif`);
      if (i < present) fs.writeFileSync(file, 'x');
      insert.run(`sha-${i}`, file, `${i}.tif`);
    }
  });
  const locations = new FileLocations(db, new AuditLedger(db.sqlite, { keyFile: path.join(dir, 'audit.key') }));
  const missingIds = () => db!.sqlite.prepare('SELECT id FROM photos WHERE missing = 1 ORDER BY id').pluck().all();
  return { locations, missingIds };
}

describe('checking every file when the library opens', () => {
  it('marks every photo on a missing drive in short transactions, reporting each as it commits', async () => {
    const { locations, missingIds } = library(1_250, 10);
    const reported: number[][] = [];
    const changed = await locations.checkAll(new AbortController().signal, (ids) => {
      // What is reported has committed: the listing already shows it.
      expect(missingIds()).toEqual(expect.arrayContaining(ids));
      reported.push(ids);
    });

    expect(changed).toBe(1_240);
    expect(missingIds()).toEqual(Array.from({ length: 1_240 }, (_, i) => i + 11));
    expect(reported.flat()).toEqual(missingIds());
    expect(Math.max(...reported.map((r) => r.length))).toBe(100);
    expect(reported.length).toBe(13); // two checked pages of 500 → 5 + 5 slices, and 240 → 3
  });

  it('stops between slices when the library closes, leaving what committed and reporting nothing more', async () => {
    const { locations, missingIds } = library(400, 0);
    const closing = new AbortController();
    const reported: number[][] = [];
    const changed = await locations.checkAll(closing.signal, (ids) => {
      reported.push(ids);
      if (reported.length === 2) closing.abort();
    });

    expect(changed).toBe(200);
    expect(missingIds()).toEqual(reported.flat());
    expect(missingIds()).toHaveLength(200);
  });

  it('finds again the photos whose drive is back', async () => {
    const { locations, missingIds } = library(300, 300);
    db!.sqlite.prepare('UPDATE photos SET missing = 1').run();
    const changed = await locations.checkAll(new AbortController().signal, () => {});
    expect(changed).toBe(300);
    expect(missingIds()).toEqual([]);
  });
});

describe('the folders missing photos were in', () => {
  /** Marks the photos at these paths missing (inserting them), as the check at open would. */
  function missingAt(paths: string[]) {
    const insert = db!.sqlite.prepare(
      `INSERT INTO photos (sha256, path, filename, size, metadata_status, missing, imported_at, updated_at)
       VALUES (?, ?, ?, 1, 'ready', 1, 0, 0)`,
    );
    db!.immediate(() => {
      for (const p of paths) insert.run(`sha-${p}`, p, path.basename(p));
    });
  }
  /** The answer path.dirname gives, counted over every missing photo. */
  function truth() {
    const counts = new Map<string, number>();
    for (const p of db!.sqlite.prepare('SELECT path FROM photos WHERE missing = 1').pluck().all() as string[])
      counts.set(path.dirname(p), (counts.get(path.dirname(p)) ?? 0) + 1);
    return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([folder, count]) => ({ folder, count }));
  }

  it('counts them per folder as path.dirname does, over several slices, letting the event loop turn between them', async () => {
    const { locations } = library(20, 20);
    const odd = ['/top.jpg', '/a/x.jpg', '/a/b/y.jpg', '/a/b//z.jpg', '/a/b.c/d e.jpg', '/ünï/çødé/ø.jpg'];
    missingAt([...odd, ...Array.from({ length: 5_000 }, (_, i) => `/drive/box-${i % 37}/scan-${i}.tif`)]);
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    const answer = await locations.missingFolders(10);
    clearInterval(ticking);

    expect(answer).toEqual({ items: truth().slice(0, 10), folders: truth().length, photos: 5_006 });
    expect((await locations.missingFolders(1_000)).items).toEqual(truth());
    // 5,006 photos are read in three slices of at most 2,000, with the loop free in between.
    expect(turns).toBeGreaterThanOrEqual(2);
  });

  it('answers a call made while a count runs with a count that starts after it, shared by every such call', async () => {
    const { locations } = library(20, 20);
    missingAt(Array.from({ length: 4_500 }, (_, i) => `/drive/box-${i % 5}/scan-${i}.tif`));
    const reads = vi.spyOn((locations as unknown as { s: Record<string, { all: () => unknown }> }).s.missingFolderSlice, 'all');
    const first = locations.missingFolders(10);
    // While the first count is under way (it has read one slice), another photo goes missing.
    await new Promise((resolve) => setImmediate(resolve));
    missingAt(['/elsewhere/late.tif']);
    const [second, third] = [locations.missingFolders(10), locations.missingFolders(10)];
    const answers = await Promise.all([first, second, third]);
    expect(answers[1]).toEqual({ items: truth().slice(0, 10), folders: 6, photos: 4_501 });
    expect(answers[2]).toEqual(answers[1]);
    // Two counts ran for the three calls, each reading the 4,501 photos in three slices and
    // finding nothing after them: eight reads (three counts would have made twelve).
    expect(reads.mock.calls.length).toBe(8);
  });
});

describe('what a Locate looks for', () => {
  /** Photos 1…n, every third one missing, with sizes that repeat. */
  function someMissing(n: number) {
    const { locations } = library(0, 0);
    const insert = db!.sqlite.prepare(
      `INSERT INTO photos (sha256, path, filename, size, metadata_status, missing, imported_at, updated_at)
       VALUES (?, ?, ?, ?, 'ready', ?, 0, 0)`,
    );
    db!.immediate(() => {
      for (let i = 1; i <= n; i++)
        insert.run(i.toString(16).padStart(64, '0'), `/drive/${i}.tif`, `${i}.tif`, 1000 + (i % 97), i % 3 === 0 ? 1 : 0);
    });
    return locations;
  }

  it("is the missing photos' sizes in id order, and how many are missing, read in slices with the loop free between them", async () => {
    const locations = someMissing(31_000); // 10,333 missing: three slices of 5,000 at most
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    const read = await locations.missingSizes(new AbortController().signal);
    clearInterval(ticking);

    const missing = db!.sqlite.prepare('SELECT size FROM photos WHERE missing = 1 ORDER BY id').pluck().all() as number[];
    expect(missing).toHaveLength(10_333);
    expect(read.missing).toBe(10_333);
    expect(read.sizes).toEqual(missing);
    expect(turns).toBeGreaterThanOrEqual(1);
  });

  it('stops between slices when the job is stopped', async () => {
    const locations = someMissing(31_000);
    const stop = new AbortController();
    const reading = locations.missingSizes(stop.signal);
    stop.abort(new Error('cancel'));
    await expect(reading).rejects.toThrow('cancel');
  });

  it('is nothing when nothing is missing', async () => {
    const locations = someMissing(2);
    expect(await locations.missingSizes(new AbortController().signal)).toEqual({ sizes: [], missing: 0 });
  });
});
