/**
 * Opens a library database with the pragmas Circa relies on. Main is the only writer; every
 * write transaction goes through `immediate()` so it takes the write lock up front (BEGIN
 * IMMEDIATE) instead of failing half-way with SQLITE_BUSY on lock upgrade, and waits for it
 * without starving beside another process that writes most of the time (write-transaction.ts).
 *
 * Queries are prepared better-sqlite3 statements, not drizzle's query builder: the job runtime's
 * hot path is measured in microseconds per statement, and one way of writing SQL is easier to
 * read than two. drizzle keeps what it is good at here: the schema (src/main/db/schema.ts) is the
 * one source of the migrations, and rows are checked against it at compile time where it matters
 * (see JobRow in src/main/jobs/store/rows.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrate, pendingMigrations, type MigrationReport } from './migrate';
import { startCheckpointer, WAL_LIMITS, type Checkpointer } from './checkpointer';
import { isNotWritable, LibraryNotWritableError } from '../library/writable';
import { writeTransactions } from './write-transaction';

export const BUSY_TIMEOUT_MS = 5000;

export interface OpenOptions {
  /** Path to circa.db. */
  file: string;
  migrationsFolder: string;
  /** Electron's ABI build of better-sqlite3 (see scripts/ensure-electron-native.mjs); Node uses the default. */
  nativeBinding?: string;
  readonly?: boolean;
  /** Run WAL checkpoints on a background thread (see checkpointer.ts). Default true. */
  backgroundCheckpoints?: boolean;
  /** Called before migrating a library that already has data (the pre-migration backup); throwing stops the open. */
  beforeMigrate?(sqlite: Database.Database, migrations: { applied: number; pending: number }): void;
}

export interface LibraryDb {
  sqlite: Database.Database;
  migration: MigrationReport;
  /** Runs `fn` in a BEGIN IMMEDIATE transaction; nested calls become savepoints. */
  immediate<T>(fn: () => T): T;
  close(): Promise<void>;
}

/**
 * Opens a library only to read it (verify-audit on an archived copy), writing nothing to its
 * folder. A library at rest is in WAL mode, whose readers need a shared-memory file beside it; on
 * read-only media that file cannot be made (and this build of SQLite takes no `immutable` URI), so
 * there the database is read from a private copy in the temporary folder, removed on close.
 */
export function openReadOnly(file: string, nativeBinding?: string): { sqlite: Database.Database; close(): void } {
  const open = (name: string) =>
    new Database(name, { readonly: true, fileMustExist: true, nativeBinding, timeout: BUSY_TIMEOUT_MS });
  let sqlite: Database.Database | undefined;
  try {
    sqlite = open(file);
    sqlite.prepare('SELECT count(*) FROM sqlite_master').get();
    return { sqlite, close: () => sqlite!.close() };
  } catch (err) {
    sqlite?.close();
    const code = (err as { code?: string }).code ?? '';
    if (!code.startsWith('SQLITE_CANTOPEN') && !code.startsWith('SQLITE_READONLY')) throw err;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-read-only-'));
  const copy = path.join(dir, path.basename(file));
  try {
    fs.copyFileSync(file, copy);
    if (fs.existsSync(`${file}-wal`)) fs.copyFileSync(`${file}-wal`, `${copy}-wal`);
    fs.chmodSync(copy, 0o600);
    const db = new Database(copy, { nativeBinding, timeout: BUSY_TIMEOUT_MS });
    return {
      sqlite: db,
      close: () => {
        db.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

export function openDatabase(opts: OpenOptions): LibraryDb {
  let sqlite: Database.Database;
  try {
    fs.mkdirSync(path.dirname(opts.file), { recursive: true });
    sqlite = new Database(opts.file, {
      nativeBinding: opts.nativeBinding,
      timeout: BUSY_TIMEOUT_MS,
    });
  } catch (err) {
    throw readOnlyOr(opts.file, err);
  }
  try {
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    if (opts.beforeMigrate) {
      const pending = pendingMigrations(sqlite, opts.migrationsFolder);
      if (pending.applied > 0 && pending.pending > 0) opts.beforeMigrate(sqlite, pending);
    }
    const migration = migrate(sqlite, opts.migrationsFolder);
    if (!opts.readonly) proveWritable(sqlite);
    // A WAL restarted after a complete checkpoint is cut back to this size, not kept at its peak.
    sqlite.pragma(`journal_size_limit = ${WAL_LIMITS.softBytes}`);
    let checkpointer: Checkpointer | null = null;
    let walGuard: NodeJS.Timeout | undefined;
    if (opts.backgroundCheckpoints !== false) {
      sqlite.pragma('wal_autocheckpoint = 0');
      checkpointer = startCheckpointer({
        file: opts.file,
        nativeBinding: opts.nativeBinding,
        onFailure: () => {
          // Never let the WAL grow without bound: fall back to SQLite's own checkpoints.
          if (sqlite.open) sqlite.pragma('wal_autocheckpoint = 1000');
        },
      });
      // The last line of defence: main truncates a WAL the thread has not kept bounded.
      walGuard = setInterval(() => truncateWalPast(sqlite, opts.file, WAL_LIMITS.hardBytes), 1000).unref();
    }
    const writes = writeTransactions(sqlite);
    return {
      sqlite,
      migration,
      immediate: writes.immediate,
      async close() {
        clearInterval(walGuard);
        await checkpointer?.close();
        if (!sqlite.open) return;
        // Fold the WAL back so the library is a single file at rest.
        try {
          sqlite.pragma('wal_checkpoint(TRUNCATE)');
        } catch {
          /* another process may hold it; WAL is still consistent */
        }
        sqlite.close();
      },
    };
  } catch (err) {
    sqlite.close();
    throw readOnlyOr(opts.file, err);
  }
}

/**
 * Opening and reading a read-only database works, and so may BEGIN IMMEDIATE: only the first
 * real write fails. Write something in a transaction that is rolled back, so a library that
 * cannot be written is refused at start rather than retried for ever.
 */
function proveWritable(sqlite: Database.Database): void {
  try {
    sqlite.exec('BEGIN IMMEDIATE');
  } catch (err) {
    if ((err as { code?: string }).code?.startsWith('SQLITE_BUSY')) return; // another writer: it can be written
    throw err;
  }
  try {
    sqlite.exec('CREATE TABLE circa_write_probe (x)');
  } finally {
    sqlite.exec('ROLLBACK');
  }
}

function readOnlyOr(file: string, err: unknown): unknown {
  return isNotWritable(err)
    ? new LibraryNotWritableError(path.dirname(file), `${path.basename(file)}: ${(err as Error).message}`)
    : err;
}

function truncateWalPast(sqlite: Database.Database, dbFile: string, limit: number): void {
  let size: number;
  try {
    size = fs.statSync(`${dbFile}-wal`).size;
  } catch {
    return;
  }
  if (size <= limit || !sqlite.open || sqlite.inTransaction) return;
  try {
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
  } catch {
    /* another process holds it: next second */
  }
}
