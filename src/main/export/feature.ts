/** The export room registers here, once: choosing an export's folder, and the export job's main half. */
import type Database from 'better-sqlite3';
import type { Handlers } from '../ipc/dispatcher';
import type { ProductHalves } from '../jobs/registry';
import type { ShellHooks } from '../shell-hooks';
import { CallFailure } from '../../shared/result';
import { exportJob } from './export-job';

export const exportFeature = {
  calls: (core: { platform: ShellHooks }) =>
    ({
      'export.chooseFolder': async () => {
        if (!core.platform.chooseFolder)
          throw new CallFailure('conflict', 'Choosing a folder needs the desktop app; type its path instead');
        return { path: await core.platform.chooseFolder('Export to folder') };
      },
    }) satisfies Partial<Handlers>,
  jobs: (deps: { sqlite: Database.Database }) => ({ export: exportJob(deps) }) satisfies Partial<ProductHalves>,
};
