/**
 * Applies the generated SQL migrations. We run our own small migrator over drizzle's migration
 * files (same `__drizzle_migrations` bookkeeping table) so that:
 *  - it runs inside BEGIN IMMEDIATE: two processes opening one library cannot both migrate;
 *  - a library written by a newer Circa (a migration we do not know) is refused, never touched.
 */
import type Database from 'better-sqlite3';
import { readMigrationFiles } from 'drizzle-orm/migrator';

export class NewerSchemaError extends Error {
  override readonly name = 'NewerSchemaError';
}

export interface MigrationReport {
  applied: number;
  schemaVersion: number;
}

/** How far a library is behind the migrations this app knows (0 when current, or when it is newer). */
export function pendingMigrations(sqlite: Database.Database, migrationsFolder: string): { applied: number; pending: number } {
  const known = readMigrationFiles({ migrationsFolder });
  const hasTable = sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'").get();
  if (!hasTable) return { applied: 0, pending: known.length };
  const newest = Number(sqlite.prepare('SELECT coalesce(max(created_at), 0) FROM __drizzle_migrations').pluck().get());
  const applied = sqlite.prepare('SELECT count(*) FROM __drizzle_migrations').pluck().get() as number;
  return { applied, pending: known.filter((m) => m.folderMillis > newest).length };
}

export function migrate(sqlite: Database.Database, migrationsFolder: string): MigrationReport {
  const known = readMigrationFiles({ migrationsFolder });
  const latestKnown = known.length ? known[known.length - 1].folderMillis : 0;
  const run = sqlite.transaction((): MigrationReport => {
    sqlite.exec(
      'CREATE TABLE IF NOT EXISTS __drizzle_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, hash TEXT NOT NULL, created_at NUMERIC)',
    );
    const applied = sqlite
      .prepare('SELECT hash, created_at AS createdAt FROM __drizzle_migrations ORDER BY created_at')
      .all() as { hash: string; createdAt: number }[];
    const newest = applied.length ? Number(applied[applied.length - 1].createdAt) : 0;
    if (newest > latestKnown || applied.length > known.length) {
      throw new NewerSchemaError(
        `This library was written by a newer version of Circa (schema ${applied.length}, this app knows ${known.length}). ` +
          'Update Circa to open it; the library has not been changed.',
      );
    }
    const insert = sqlite.prepare('INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)');
    let count = 0;
    for (const m of known) {
      if (m.folderMillis <= newest) continue;
      for (const statement of m.sql) if (statement.trim()) sqlite.exec(statement);
      insert.run(m.hash, m.folderMillis);
      count++;
    }
    return { applied: count, schemaVersion: known.length };
  });
  return run.immediate();
}
