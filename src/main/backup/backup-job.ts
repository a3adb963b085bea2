/**
 * Main's half of `backup`: `load` takes the snapshot asynchronously, off main's thread (see
 * ./snapshot.ts), into a temporary name in the backup folder; the worker verifies and publishes
 * it (src/worker/handlers/backup.ts); `apply` only reports.
 */
import fs from 'node:fs';
import path from 'node:path';
import { backupFileName, manifestNameFor, partialNameFor } from '../../shared/backup/manifest';
import type { BackupJobType } from '../../shared/jobs/types/backup';
import { formatBytes } from '../../shared/format-bytes';
import { removeStalePartials } from '../../shared/node/backup-folder';
import type { MainHalf } from '../jobs/registry';
import type { LibraryPaths } from '../library/paths';
import type { SettingsStore } from '../settings/settings';
import { backupFolderOf, ensureBackupFolder, folderError } from './backup-folder';
import { SnapshotError, takeSnapshot } from './snapshot';

export interface BackupJobDeps {
  paths: LibraryPaths;
  settings: SettingsStore;
  nativeBinding?: string;
  onBackupsChanged(): void;
}

/** A name not yet used in `dir` (two backups within one second get -2, -3 …). */
export function freeBackupName(dir: string, createdAt: number, reason: Parameters<typeof backupFileName>[1]): string {
  const base = backupFileName(createdAt, reason);
  for (let n = 1; ; n++) {
    const name = n === 1 ? base : base.replace(/\.db$/, `-${n}.db`);
    const taken = [name, manifestNameFor(name), partialNameFor(name)].some((f) => fs.existsSync(path.join(dir, f)));
    if (!taken) return name;
  }
}

export function backupJob(deps: BackupJobDeps): MainHalf<BackupJobType> {
  return {
    async load(job, main) {
      const folder = backupFolderOf(deps.settings, deps.paths);
      await ensureBackupFolder(folder);
      await removeStalePartials(folder.dir);
      const createdAt = Date.now();
      const { reason } = job.payload;
      const name = freeBackupName(folder.dir, createdAt, reason);
      const temp = path.join(folder.dir, partialNameFor(name));
      let snapshot;
      try {
        snapshot = await takeSnapshot({
          source: deps.paths.dbFile,
          dest: temp,
          nativeBinding: deps.nativeBinding,
          signal: main.signal,
        });
      } catch (err) {
        throw err instanceof SnapshotError && err.code ? folderError(err, folder.dir) : err;
      }
      const settings = deps.settings.get();
      return {
        temp,
        final: path.join(folder.dir, name),
        manifest: {
          format: 'circa-backup',
          version: 1,
          file: name,
          createdAt,
          reason,
          schemaVersion: snapshot.schemaVersion,
          counts: snapshot.counts,
          size: 0,
          verified: false,
          libraryDir: deps.paths.dir,
        },
        nativeBinding: deps.nativeBinding,
        rotation: { keepDaily: settings.backupKeepDaily, keepWeekly: settings.backupKeepWeekly },
      };
    },
    apply(out) {
      deps.onBackupsChanged();
      const removed = out.removed.length
        ? `; ${out.removed.length} older backup${out.removed.length === 1 ? '' : 's'} removed`
        : '';
      const warning = out.rotationError ? `; ${out.rotationError}` : '';
      return `${out.name}: ${out.photos.toLocaleString('en')} photos, ${formatBytes(out.size)}, verified${removed}${warning}`;
    },
  };
}
