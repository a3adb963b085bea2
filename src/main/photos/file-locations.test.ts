/** The check when a library opens, on a real SQLite file: a drive that is not plugged in. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
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
