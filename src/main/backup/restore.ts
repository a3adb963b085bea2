/**
 * Restoring the library from a backup. Everything that can fail is done first on a staged copy
 * beside the library, while the library is still open and untouched: the copy is checked (a
 * SQLite file, a Circa library, integrity, a schema not newer than this app's), migrated up, its
 * ledger verified under this library's key (see restored-ledger.ts), the jobs that were running
 * when it was taken queued again (their leases belong to processes long gone) and the restore
 * itself recorded in its audit ledger. Only then is the
 * live library closed (the runner stops and releases its leases), kept as a safety copy, and the
 * staged copy renamed over it — one atomic step — and opened. If anything fails after the close,
 * the safety copy is put back and the library opened again as it was.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { manifestNameFor, partialNameFor, type BackupManifest } from '../../shared/backup/manifest';
import { NotALibraryError, countRows, inspectLibraryFile, isSqliteFile } from '../../shared/node/library-file';
import { openDatabase } from '../db/open';
import { openRestoredLedger, RestoredLedgerError } from './restored-ledger';
import { AuditKey } from '../audit/signing';
import { readHead } from '../audit/verify';
import { writeCounter, type SignedPoint } from '../audit/rollback-counter';
import { JobTransitions } from '../jobs/store/transitions';
import type { LibraryPaths } from '../library/paths';
import type { Logger } from '../logger';
import { appPaths } from '../app-paths';
import { freeBackupName } from './backup-job';
import { errnoCode, isDiskFull } from '../../shared/node/io-errors';
import { formatBytes } from '../../shared/format-bytes';

export interface RestoreReport {
  restoredFrom: string;
  /** The library as it was before, kept in the library's backups/ folder (null: there was none). */
  safetyCopy: string | null;
  schemaBefore: number;
  schemaAfter: number;
  photos: number;
  /** Jobs that were running when the backup was taken, queued again. */
  requeued: number;
}

/** A restore that did not happen; the message says why, and the library is as it was. */
export class RestoreError extends Error {
  override readonly name = 'RestoreError';
}

export interface RestoreOptions {
  file: string;
  paths: LibraryPaths;
  nativeBinding?: string;
  log: Logger;
  actor?: string;
  /** Stops the runner (leases released) and closes the live library. */
  closeLive(): Promise<void>;
  /** Opens the library again (the restored one, or the old one after a failure); throws if it cannot. */
  openLive(): void;
}

export async function restoreLibrary(o: RestoreOptions): Promise<RestoreReport> {
  const source = path.resolve(o.file);
  const staged = path.join(o.paths.dir, partialNameFor('circa.db.restoring'));
  const hadLibrary = fs.existsSync(o.paths.dbFile);
  const safetyName = hadLibrary ? freeBackupName(ensureDir(o.paths.backupsDir), Date.now(), 'before-restore') : null;
  const safetyCopy = safetyName ? path.join(o.paths.backupsDir, safetyName) : null;
  let prepared: Omit<Awaited<ReturnType<typeof stage>>, 'head'>;
  let restoredHead: SignedPoint;
  try {
    checkRoom(source, o.paths);
    ({ head: restoredHead, ...prepared } = await stage(source, staged, safetyName, o));
  } catch (err) {
    removeWithSidecars(staged);
    if (err instanceof RestoreError) throw err;
    if (isDiskFull(err))
      throw new RestoreError(`${full(`the backup could not be copied into ${o.paths.dir}`)} The library was left as it was.`);
    throw new RestoreError(`The backup could not be restored: ${(err as Error).message}`);
  }

  await o.closeLive();
  let swapped = false;
  const counterBefore = readFileOrNull(o.paths.auditCounterFile);
  try {
    if (hadLibrary) keepSafetyCopy(o.paths, safetyCopy!);
    fs.renameSync(staged, o.paths.dbFile);
    swapped = true;
    // The one rollback Circa makes itself (and records): the counter starts again from the restored head.
    resetCounter(o.paths, restoredHead);
    try {
      o.openLive();
    } catch (err) {
      throw isDiskFull(err) ? new RestoreError(full(`the restored library could not be opened in ${o.paths.dir}`)) : err;
    }
  } catch (err) {
    removeWithSidecars(staged);
    const why = err instanceof RestoreError ? err.message : `The backup could not be restored: ${(err as Error).message}.`;
    try {
      if (swapped && safetyCopy) putBack(safetyCopy, o.paths);
      if (swapped) restoreFile(o.paths.auditCounterFile, counterBefore);
      else if (safetyCopy) removeBackup(safetyCopy);
      o.openLive();
    } catch (reopen) {
      throw new RestoreError(`${why} Reopening the library also failed: ${(reopen as Error).message}`);
    }
    throw new RestoreError(`${why} The library was left as it was.`);
  }
  o.log.info(`restored the library from ${source}${safetyCopy ? `; the previous one is kept as ${safetyCopy}` : ''}`);
  return { restoredFrom: source, safetyCopy, ...prepared };
}

const full = (what: string) => `The disk is full: ${what}. Free some space and try again.`;

/** Room for the staged copy of the backup and the safety copy of the library, or a RestoreError before anything is touched. */
function checkRoom(source: string, paths: LibraryPaths): void {
  const size = (f: string) => (fs.existsSync(f) ? fs.statSync(f).size : 0);
  // Migrating the staged copy and folding the live library's WAL need a little more.
  const needed = size(source) + size(paths.dbFile) + size(`${paths.dbFile}-wal`) + 4 * 1024 * 1024;
  let free: number;
  try {
    const s = fs.statfsSync(paths.dir);
    free = s.bavail * s.bsize;
  } catch {
    return; // no figure to go by (an unusual file system): the steps themselves will say if the disk is full
  }
  if (free < needed)
    throw new RestoreError(
      `The disk is full: restoring this backup needs about ${formatBytes(needed)} free in ${paths.dir} ` +
        `(for the restored library and a safety copy of this one), and ${formatBytes(free)} are free. ` +
        'Free some space and try again. The library was left as it was.',
    );
}

/** Copies, checks, migrates and prepares the backup beside the library (which stays open meanwhile). */
async function stage(source: string, staged: string, safetyName: string | null, o: RestoreOptions) {
  removeWithSidecars(staged);
  if (!fs.existsSync(source)) throw new RestoreError(`There is no backup at ${source}`);
  if (!isSqliteFile(source)) throw new RestoreError(`${source} is not a Circa backup (not a SQLite database)`);
  fs.copyFileSync(source, staged);
  // Our copy may be written to: make it a single file (a backup may be a raw copy of a WAL library).
  const raw = new Database(staged, { nativeBinding: o.nativeBinding });
  try {
    raw.pragma('journal_mode = DELETE');
  } catch (err) {
    throw new RestoreError(`${source} is not a Circa library: ${(err as Error).message}`);
  } finally {
    raw.close();
  }
  let before;
  try {
    before = inspectLibraryFile(staged, { nativeBinding: o.nativeBinding });
  } catch (err) {
    if (err instanceof NotALibraryError) throw new RestoreError(err.message.replaceAll(staged, source));
    throw err;
  }
  const known = readMigrationFiles({ migrationsFolder: appPaths().migrations });
  if (before.schemaVersion > known.length || before.newestMigrationAt > (known.at(-1)?.folderMillis ?? 0)) {
    throw new RestoreError(
      `${source} was written by a newer version of Circa (schema ${before.schemaVersion}, this app knows ${known.length}); update Circa to restore it`,
    );
  }
  const db = openDatabase({
    file: staged,
    migrationsFolder: appPaths().migrations,
    nativeBinding: o.nativeBinding,
    backgroundCheckpoints: false,
  });
  try {
    const actor = o.actor ?? 'user';
    let ledger;
    try {
      ledger = openRestoredLedger(db.sqlite, { keyFile: o.paths.auditKeyFile, source, actor });
    } catch (err) {
      throw err instanceof RestoredLedgerError ? new RestoreError(err.message) : err;
    }
    const transitions = new JobTransitions(db, ledger);
    const requeued = transitions.transaction(() => {
      const running = db.sqlite
        .prepare("SELECT id, type, attempt, claimed_by FROM background_jobs WHERE status = 'running'")
        .all() as {
        id: number;
        type: string;
        attempt: number;
        claimed_by: string;
      }[];
      let n = 0;
      for (const r of running) {
        const lease = { id: r.id, attempt: r.attempt, claimedBy: r.claimed_by };
        // The backup job running in a backup is the one that took it: it is done (this is its result).
        if (r.type === 'backup')
          transitions.markSuccess(lease, `Restored from this backup (${path.basename(source)})`, true, actor);
        else if (transitions.release(lease, 'requeued_after_restore', actor)) n++;
      }
      return n;
    });
    const photos = countRows(db.sqlite).photos ?? 0;
    db.immediate(() =>
      ledger.append([
        {
          event: 'library_restored',
          actor,
          data: {
            from: source,
            schemaBefore: before.schemaVersion,
            schemaAfter: db.migration.schemaVersion,
            photos,
            requeued,
            safetyCopy: safetyName,
          },
        },
      ]),
    );
    const schemaAfter = db.migration.schemaVersion;
    db.sqlite.pragma('journal_mode = DELETE');
    const head = readHead(db.sqlite)!;
    return { schemaBefore: before.schemaVersion, schemaAfter, photos, requeued, head: { lastId: head.lastId, hash: head.hash } };
  } finally {
    await db.close();
  }
}

/**
 * The live library (closed by now) is folded into one file and copied to backups/. Switching it
 * out of WAL needs every connection gone: if another process (a headless runner) still has it
 * open, the restore stops here.
 */
function keepSafetyCopy(paths: LibraryPaths, safetyCopy: string): void {
  const noRoom = () => new RestoreError(full(`the safety copy of the library could not be written to ${paths.backupsDir}`));
  const live = new Database(paths.dbFile, { timeout: 0 });
  let counts;
  let schemaVersion;
  try {
    const mode = live.pragma('journal_mode = DELETE', { simple: true });
    if (mode !== 'delete') throw new Error(`journal mode stayed ${String(mode)}`);
    counts = countRows(live);
    schemaVersion = live.prepare('SELECT count(*) FROM __drizzle_migrations').pluck().get() as number;
  } catch (err) {
    // Folding the WAL into the library writes to it: on a full disk that fails too.
    if (isDiskFull(err)) throw noRoom();
    throw new RestoreError('Another Circa process (the app or a headless runner) has this library open; close it and try again.');
  } finally {
    live.close();
  }
  if (fs.existsSync(`${paths.dbFile}-wal`))
    throw new RestoreError('The library still has changes in its WAL file; close every Circa process and try again.');
  const name = path.basename(safetyCopy);
  const temp = path.join(path.dirname(safetyCopy), partialNameFor(name));
  try {
    fs.copyFileSync(paths.dbFile, temp);
    const manifest: BackupManifest = {
      format: 'circa-backup',
      version: 1,
      file: name,
      createdAt: Date.now(),
      reason: 'before-restore',
      schemaVersion,
      counts,
      size: fs.statSync(temp).size,
      verified: false,
      libraryDir: paths.dir,
    };
    fs.writeFileSync(path.join(path.dirname(safetyCopy), manifestNameFor(name)), JSON.stringify(manifest, null, 2));
    fs.renameSync(temp, safetyCopy);
  } catch (err) {
    fs.rmSync(temp, { force: true });
    removeBackup(safetyCopy);
    throw isDiskFull(err) ? noRoom() : err;
  }
}

/**
 * After a failed swap: the safety copy becomes the library again. It is moved, not copied, so this
 * works on a full disk (the restored file it replaces frees its room); a copy only when the
 * backups folder is on another disk. The restored library's WAL and shared memory go first, so
 * they can never be applied to the old one.
 */
function putBack(safetyCopy: string, paths: LibraryPaths): void {
  for (const f of [`${paths.dbFile}-wal`, `${paths.dbFile}-shm`, `${paths.dbFile}-journal`]) fs.rmSync(f, { force: true });
  try {
    fs.renameSync(safetyCopy, paths.dbFile);
  } catch (err) {
    if (errnoCode(err) !== 'EXDEV') throw err;
    const temp = path.join(paths.dir, partialNameFor('circa.db.putback'));
    fs.copyFileSync(safetyCopy, temp);
    fs.renameSync(temp, paths.dbFile);
  }
  removeBackup(safetyCopy);
}

/** A backup and its manifest (a safety copy no longer needed: the library is back as it was). */
function removeBackup(file: string): void {
  fs.rmSync(file, { force: true });
  fs.rmSync(path.join(path.dirname(file), manifestNameFor(path.basename(file))), { force: true });
}

function removeWithSidecars(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) fs.rmSync(f, { force: true });
}

function ensureDir(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

function resetCounter(paths: LibraryPaths, head: SignedPoint): void {
  const key = AuditKey.read(paths.auditKeyFile);
  if (key) writeCounter(paths.auditCounterFile, key, head, false);
}

function readFileOrNull(file: string): Buffer | null {
  try {
    return fs.readFileSync(file);
  } catch {
    return null;
  }
}

/** Puts a small file back as it was (or removes it, if there was none). */
function restoreFile(file: string, bytes: Buffer | null): void {
  if (bytes) fs.writeFileSync(file, bytes, { mode: 0o600 });
  else fs.rmSync(file, { force: true });
}
