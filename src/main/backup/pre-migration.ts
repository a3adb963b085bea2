/**
 * The backup taken before every migration: when a library opened by this app is behind its
 * schema, a verified copy goes to the backup folder before anything is changed. It runs while the
 * library opens, before main serves anything, so the copy is a plain `VACUUM INTO` on main's
 * connection; a write by another process during it (a headless runner) is caught by counting
 * before and after, and the copy is then taken again.
 */
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { manifestNameFor, partialNameFor, type BackupManifest } from '../../shared/backup/manifest';
import { countDifferences, countRows, inspectLibraryFile } from '../../shared/node/library-file';
import type { LibraryPaths } from '../library/paths';
import type { Logger } from '../logger';
import { freeBackupName } from './backup-job';

const ATTEMPTS = 3;

export function preMigrationBackup(
  sqlite: Database.Database,
  opts: { paths: LibraryPaths; log: Logger; nativeBinding?: string },
): string {
  let dir: string;
  try {
    dir = folderFor(sqlite, opts.paths, opts.log);
  } catch (err) {
    throw failed(err);
  }
  for (let attempt = 1; ; attempt++) {
    const createdAt = Date.now();
    const name = freeBackupName(dir, createdAt, 'pre-migration');
    const temp = path.join(dir, partialNameFor(name));
    try {
      const counts = countRows(sqlite);
      const schemaVersion = sqlite.prepare('SELECT count(*) FROM __drizzle_migrations').pluck().get() as number;
      sqlite.prepare('VACUUM INTO ?').run(temp);
      if (countDifferences(counts, countRows(sqlite)).length) {
        fs.rmSync(temp, { force: true });
        if (attempt < ATTEMPTS) continue;
        throw new Error('the library kept changing while it was copied (is another Circa process writing to it?)');
      }
      const report = inspectLibraryFile(temp, { nativeBinding: opts.nativeBinding });
      const differences = countDifferences(counts, report.counts);
      if (differences.length) throw new Error(`the copy did not verify: ${differences.join(', ')}`);
      const manifest: BackupManifest = {
        format: 'circa-backup',
        version: 1,
        file: name,
        createdAt,
        reason: 'pre-migration',
        schemaVersion,
        counts,
        size: fs.statSync(temp).size,
        verified: true,
        libraryDir: opts.paths.dir,
      };
      writeSync(path.join(dir, manifestNameFor(name)), JSON.stringify(manifest, null, 2));
      fs.renameSync(temp, path.join(dir, name));
      opts.log.info(`backed up the library before migrating it: ${path.join(dir, name)}`);
      return path.join(dir, name);
    } catch (err) {
      fs.rmSync(temp, { force: true });
      throw failed(err);
    }
  }
}

const failed = (err: unknown) =>
  new Error(`Circa did not update this library because its backup failed: ${(err as Error).message}`, { cause: err });

/** The chosen backup folder when it is reachable, else the library's own (a migration must not wait for a drive). */
function folderFor(sqlite: Database.Database, paths: LibraryPaths, log: Logger): string {
  let custom = '';
  try {
    const raw = sqlite.prepare("SELECT value FROM settings WHERE key = 'backupDir'").pluck().get() as string | undefined;
    custom = raw ? String(JSON.parse(raw)) : '';
  } catch {
    /* no settings yet */
  }
  if (custom) {
    try {
      fs.accessSync(custom, fs.constants.W_OK);
      if (fs.statSync(custom).isDirectory()) return custom;
    } catch {
      /* fall through */
    }
    log.warn(`the backup folder ${custom} is not reachable; the pre-migration backup goes to ${paths.backupsDir}`);
  }
  fs.mkdirSync(paths.backupsDir, { recursive: true });
  return paths.backupsDir;
}

function writeSync(file: string, data: string): void {
  const temp = path.join(path.dirname(file), partialNameFor(path.basename(file)));
  const fd = fs.openSync(temp, 'w');
  try {
    fs.writeSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temp, file);
}
