/** The backup room registers here, once: the list of backups, a restore, and the backup job's main half. */
import type { ProductHalves } from '../jobs/registry';
import { backupCalls, type BackupCallDeps } from './backup-calls';
import { backupJob, type BackupJobDeps } from './backup-job';

export const backupFeature = {
  calls: (core: BackupCallDeps) => backupCalls(core),
  jobs: (deps: { backup: BackupJobDeps }) => ({ backup: backupJob(deps.backup) }) satisfies Partial<ProductHalves>,
};
