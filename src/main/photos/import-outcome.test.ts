/** What became of one import's photos, on a real SQLite file. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appPaths } from '../app-paths';
import { openDatabase, type LibraryDb } from '../db/open';
import { ImportOutcomes } from './import-outcome';

let db: LibraryDb | undefined;
afterEach(async () => {
  await db?.close();
  db = undefined;
});

/** Photos 1–30: ids 11–30 are the import's; every third is still being read, ids 15 and 25 are unreadable. */
function library() {
  db = openDatabase({
    file: path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'circa-outcome-')), 'circa.db'),
    migrationsFolder: appPaths().migrations,
    backgroundCheckpoints: false,
  });
  const insert = db.sqlite.prepare(
    `INSERT INTO photos (sha256, path, filename, size, metadata_status, metadata_error, imported_at, updated_at)
     VALUES (?, ?, ?, 1, ?, ?, 0, 0)`,
  );
  db.immediate(() => {
    for (let id = 1; id <= 30; id++) {
      const status = id % 5 === 0 && id % 10 === 5 ? 'failed' : id % 3 === 0 ? 'pending' : 'ready';
      insert.run(`sha-${id}`, `/scans/${id}.tif`, `${id}.tif`, status, status === 'failed' ? `broken ${id}` : null);
    }
  });
  return db;
}

describe('an import’s outcome', () => {
  it('counts the photos still being read and those unreadable among the import’s alone, and names the first unreadable', () => {
    const outcomes = new ImportOutcomes(library().sqlite);
    // In 11–30: pending 12 18 21 24 27 30 (15 is failed), failed 15 25.
    expect(outcomes.of({ first: 11, last: 30 }, 1)).toEqual({
      reading: 6,
      unreadable: 2,
      errors: [{ path: '/scans/15.tif', message: 'broken 15' }],
    });
    expect(outcomes.of(null, 5)).toEqual({ reading: 0, unreadable: 0, errors: [] });
  });

  // Asked whenever the library changes during an import: a scan of the import's rows grew with
  // every photo it added (and stalled main's thread on long imports), the index does not.
  it('is counted from the metadata-status index, never by reading the photos’ rows', () => {
    const sqlite = library().sqlite;
    const source = (outcomes: ImportOutcomes, name: string) =>
      (outcomes as unknown as Record<string, { source: string }>)[name].source;
    const outcomes = new ImportOutcomes(sqlite);
    const plan = (sql: string) =>
      (sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all({ first: 1, last: 2 }) as { detail: string }[])
        .map((r) => r.detail)
        .join('\n');
    const counts = plan(source(outcomes, 'counts'));
    expect(
      counts.match(
        /SEARCH photos USING COVERING INDEX photos_metadata_status_idx \(metadata_status=\? AND rowid>\? AND rowid<\?\)/g,
      ),
    ).toHaveLength(2);
    expect(counts).not.toMatch(/INTEGER PRIMARY KEY/);
  });
});
