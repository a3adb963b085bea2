/**
 * Checks a file that claims to be a Circa library: a backup after its snapshot (in a worker) and a
 * file about to be restored (in main). It is opened read-only, never the live circa.db.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { COUNTED_TABLES, type BackupCounts } from '../backup/manifest';

export const REQUIRED_TABLES = [...COUNTED_TABLES, '__drizzle_migrations'] as const;

export interface LibraryFileReport {
  /** Number of migrations applied (the schema version) and the newest one's timestamp. */
  schemaVersion: number;
  newestMigrationAt: number;
  counts: BackupCounts;
}

export class NotALibraryError extends Error {
  override readonly name = 'NotALibraryError';
}

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/** The file starts with SQLite's header (false when it cannot be read at all). */
export function isSqliteFile(file: string): boolean {
  const head = Buffer.alloc(16);
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return false;
  }
  try {
    return fs.readSync(fd, head, 0, 16, 0) === 16 && head.equals(SQLITE_HEADER);
  } finally {
    fs.closeSync(fd);
  }
}

/** Throws NotALibraryError with a sentence a person can act on when the file is not a sound Circa library. */
export function inspectLibraryFile(file: string, opts: { nativeBinding?: string; integrity?: boolean } = {}): LibraryFileReport {
  if (!isSqliteFile(file)) throw new NotALibraryError(`${file} is not a SQLite database`);
  const db = new Database(file, { readonly: true, fileMustExist: true, nativeBinding: opts.nativeBinding });
  try {
    const tables = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]).map(String),
    );
    const missing = REQUIRED_TABLES.filter((t) => !tables.has(t));
    if (missing.length) throw new NotALibraryError(`${file} is not a Circa library (no ${missing.join(', ')} table)`);
    if (opts.integrity !== false) {
      const problems = db.prepare('PRAGMA integrity_check(20)').pluck().all() as string[];
      if (problems.length !== 1 || problems[0] !== 'ok')
        throw new NotALibraryError(`${file} is damaged: ${problems.slice(0, 3).join('; ')}`);
    }
    const migrations = db
      .prepare('SELECT count(*) AS n, coalesce(max(created_at), 0) AS newest FROM __drizzle_migrations')
      .get() as {
      n: number;
      newest: number;
    };
    return { schemaVersion: migrations.n, newestMigrationAt: Number(migrations.newest), counts: countRows(db) };
  } finally {
    db.close();
  }
}

/** Row counts of the tables a backup is verified against, on any open connection. */
export function countRows(db: Database.Database): BackupCounts {
  const counts: BackupCounts = {};
  for (const t of COUNTED_TABLES) counts[t] = db.prepare(`SELECT count(*) FROM ${t}`).pluck().get() as number;
  return counts;
}

/** "photos 12 ≠ 13" for each table whose count differs; empty when they match. */
export function countDifferences(expected: BackupCounts, actual: BackupCounts): string[] {
  return Object.keys(expected)
    .filter((t) => expected[t] !== actual[t])
    .map((t) => `${t} ${actual[t] ?? 'missing'} (expected ${expected[t]})`);
}
