/** The contract calls for the library's backups: the list of them, a restore. */
import path from 'node:path';
import fs from 'node:fs';
import type { BackupEntry } from '../../shared/contract';
import { readBackupFolder } from '../../shared/node/backup-folder';
import { errnoCode } from '../../shared/node/io-errors';
import { CallFailure } from '../../shared/result';
import { backupFolderOf } from './backup-folder';
import { RestoreError, type RestoreReport } from './restore';
import type { SettingsStore } from '../settings/settings';
import type { LibraryPaths } from '../library/paths';
import type { Handlers } from '../ipc/dispatcher';

export interface BackupCallDeps {
  settings: SettingsStore;
  paths: LibraryPaths;
  /** Replaces the library with the backup at `file` (only when a CoreHost owns the core). */
  restore?(file: string): Promise<RestoreReport & { thumbnailsQueued: number }>;
}

export function backupCalls(core: BackupCallDeps): Pick<Handlers, 'backups.list' | 'backups.restore'> {
  /** The backup folder, and the library's own backups/ (pre-migration and safety copies go there when the folder is elsewhere). */
  const folders = () => {
    const folder = backupFolderOf(core.settings, core.paths);
    return folder.custom ? [folder.dir, core.paths.backupsDir] : [folder.dir];
  };

  return {
    'backups.list': async () => {
      const [main, ...others] = folders();
      let problem: string | null = null;
      const items: BackupEntry[] = [];
      for (const dir of [main, ...others]) {
        try {
          const entries = await readBackupFolder(dir);
          for (const e of entries) if (!items.some((i) => i.name === e.name)) items.push(entryOf(e, dir));
        } catch (err) {
          if (dir === main && errnoCode(err) !== 'ENOENT')
            problem = `The backup folder ${dir} cannot be read: ${(err as Error).message}`;
          else if (dir === main && backupFolderOf(core.settings, core.paths).custom)
            problem = `The backup folder ${dir} is not reachable (is the drive connected?)`;
        }
      }
      items.sort((a, b) => b.createdAt - a.createdAt);
      return { folder: main, problem, items };
    },

    'backups.restore': async ({ name }) => {
      if (!core.restore)
        throw new CallFailure('conflict', 'This Circa cannot restore while it runs; use circa-worker restore FILE');
      const file = folders()
        .map((dir) => path.join(dir, name))
        .find((f) => fs.existsSync(f));
      if (!file) throw new CallFailure('not_found', `There is no backup named ${name}`);
      try {
        return await core.restore(file);
      } catch (err) {
        if (err instanceof RestoreError) throw new CallFailure('conflict', err.message);
        throw err;
      }
    },
  };
}

function entryOf(e: Awaited<ReturnType<typeof readBackupFolder>>[number], folder: string): BackupEntry {
  return {
    name: e.name,
    folder,
    createdAt: e.createdAt,
    size: e.size,
    photos: e.photos,
    verified: e.verified,
    reason: e.reason,
    schemaVersion: e.schemaVersion,
  };
}
