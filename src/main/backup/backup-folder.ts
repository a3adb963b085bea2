/** Where backups go (the setting, or the library's backups/ folder) and the words for a folder that cannot be used. */
import fs from 'node:fs/promises';
import { PermanentJobError } from '../../shared/jobs/errors';
import { backupDiskFull } from '../../shared/node/backup-folder';
import { errnoCode, isDiskFull } from '../../shared/node/io-errors';
import type { LibraryPaths } from '../library/paths';
import type { SettingsStore } from '../settings/settings';

export interface BackupFolder {
  dir: string;
  /** Chosen by the archivist (maybe an external drive) rather than the library's own backups/. */
  custom: boolean;
}

export function backupFolderOf(settings: SettingsStore, paths: LibraryPaths): BackupFolder {
  const custom = settings.get().backupDir;
  return custom ? { dir: custom, custom: true } : { dir: paths.backupsDir, custom: false };
}

/**
 * The folder exists and may be written, or a PermanentJobError says what is wrong. The library's
 * own folder is created; a chosen one is not (a drive that is not plugged in must not turn into an
 * empty folder on the system disk).
 */
export async function ensureBackupFolder(folder: BackupFolder): Promise<void> {
  try {
    if (!folder.custom) await fs.mkdir(folder.dir, { recursive: true });
    const st = await fs.stat(folder.dir);
    if (!st.isDirectory()) throw new PermanentJobError(`The backup folder ${folder.dir} is not a folder`);
    await fs.access(folder.dir, fs.constants.W_OK);
  } catch (err) {
    throw folderError(err, folder.dir);
  }
}

export function folderError(err: unknown, dir: string): unknown {
  if (err instanceof PermanentJobError) return err;
  switch (errnoCode(err)) {
    case 'ENOENT':
    case 'ENOTDIR':
      return new PermanentJobError(`The backup folder ${dir} is not reachable (is the drive connected?)`, { cause: err });
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return new PermanentJobError(`Circa may not write to the backup folder ${dir}`, { cause: err });
    default:
      return isDiskFull(err) ? backupDiskFull(dir, err) : err;
  }
}
