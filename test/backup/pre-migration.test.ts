/** A library behind this app's schema is backed up (verified) before it is migrated; a fresh one is not. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/main/db/open';
import { appPaths } from '../../src/main/app-paths';
import { libraryPaths } from '../../src/main/library/paths';
import { preMigrationBackup } from '../../src/main/backup/pre-migration';
import { readBackupFolder } from '../../src/shared/node/backup-folder';
import { inspectLibraryFile } from '../../src/shared/node/library-file';
import { silentLogger } from '../../src/main/logger';
import { tempDir } from '../support/core';

/** The app's migrations without the newest one: a library written by the previous version. */
function previousMigrations(): { folder: string; known: number } {
  const folder = path.join(tempDir(), 'migrations');
  fs.cpSync(appPaths().migrations, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8'));
  const known = journal.entries.length;
  journal.entries.pop();
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return { folder, known };
}

describe('pre-migration backup', () => {
  it('copies an older library, verified, before migrating it', async () => {
    const { folder, known } = previousMigrations();
    const paths = libraryPaths(tempDir());
    const old = openDatabase({ file: paths.dbFile, migrationsFolder: folder, backgroundCheckpoints: false });
    old.sqlite
      .prepare(
        `INSERT INTO photos (sha256, path, filename, size, imported_at, updated_at) VALUES (?, '/a.jpg', 'a.jpg', 1, 0, 0)`,
      )
      .run('a'.repeat(64));
    await old.close();

    const backups: string[] = [];
    const db = openDatabase({
      file: paths.dbFile,
      migrationsFolder: appPaths().migrations,
      backgroundCheckpoints: false,
      beforeMigrate: (sqlite) => backups.push(preMigrationBackup(sqlite, { paths, log: silentLogger })),
    });
    expect(db.migration).toEqual({ applied: 1, schemaVersion: known });
    await db.close();
    expect(backups).toHaveLength(1);
    const [entry] = await readBackupFolder(paths.backupsDir);
    expect(entry).toMatchObject({ reason: 'pre-migration', verified: true, schemaVersion: known - 1, photos: 1 });
    expect(inspectLibraryFile(entry.file).schemaVersion).toBe(known - 1);

    // Opening the now-current library again takes no backup.
    const again = openDatabase({
      file: paths.dbFile,
      migrationsFolder: appPaths().migrations,
      backgroundCheckpoints: false,
      beforeMigrate: () => backups.push('unexpected'),
    });
    await again.close();
    expect(backups).toHaveLength(1);
  });

  it('a new library is created without a backup', async () => {
    const paths = libraryPaths(tempDir());
    let called = false;
    const db = openDatabase({
      file: paths.dbFile,
      migrationsFolder: appPaths().migrations,
      backgroundCheckpoints: false,
      beforeMigrate: () => (called = true),
    });
    await db.close();
    expect(called).toBe(false);
  });

  it('when the backup cannot be written the library is left as it was and the open says why', async () => {
    const { folder, known } = previousMigrations();
    const paths = libraryPaths(tempDir());
    await openDatabase({ file: paths.dbFile, migrationsFolder: folder, backgroundCheckpoints: false }).close();
    fs.writeFileSync(paths.backupsDir, 'a file where the backups folder should be');
    expect(() =>
      openDatabase({
        file: paths.dbFile,
        migrationsFolder: appPaths().migrations,
        backgroundCheckpoints: false,
        beforeMigrate: (sqlite) => preMigrationBackup(sqlite, { paths, log: silentLogger }),
      }),
    ).toThrow(/^Circa did not update this library because its backup failed/);
    expect(inspectLibraryFile(paths.dbFile).schemaVersion).toBe(known - 1);
  });
});
