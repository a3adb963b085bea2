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
import type { Settings } from '../../shared/contract';
import { describeRetention, KEEP_MONTHLY, type RotationPolicy } from '../../shared/backup/rotation';
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
        rotation: retentionOf(settings),
      };
    },
    apply(out) {
      deps.onBackupsChanged();
      // Which ones, and by what rule: "1 older backup removed" alone read like a loss.
      const removed = out.removed.length
        ? `; removed ${out.removed.length === 1 ? 'an older backup' : `${out.removed.length} older backups`} ` +
          `(${out.removed.join(', ')}) by the rule in Settings: ${describeRetention(retentionOf(deps.settings.get()))}`
        : '';
      const warning = out.rotationError ? `; ${out.rotationError}` : '';
      return `${out.name}: ${out.photos.toLocaleString('en')} photos, ${formatBytes(out.size)}, verified${removed}${warning}`;
    },
  };
}

/** The retention rule the settings give (see shared/backup/rotation.ts). */
export function retentionOf(s: Pick<Settings, 'backupKeepDaily' | 'backupKeepWeekly'>): RotationPolicy {
  return { keepDaily: s.backupKeepDaily, keepWeekly: s.backupKeepWeekly, keepMonthly: KEEP_MONTHLY };
}
