/** The contract calls for finding missing photos again: where they were, Locate…, the shell's picker. */
import path from 'node:path';
import { CallFailure } from '../../shared/result';
import type { JobService } from '../jobs/service';
import type { Handlers } from '../ipc/dispatcher';
import type { ShellHooks } from '../shell-hooks';
import { checkLocatePlace } from './locate-job';
import type { FileLocations } from './file-locations';

/** Folders listed by photos.missingFolders (the rest are counted). */
const LISTED_FOLDERS = 200;

export interface LocateCallDeps {
  jobs: JobService;
  locations: FileLocations;
  platform: ShellHooks;
}

export function locateCalls(
  core: LocateCallDeps,
): Pick<Handlers, 'photos.locate' | 'photos.missingFolders' | 'photos.chooseLocation'> {
  return {
    'photos.locate': async ({ path: place, photoIds, folder }) => {
      if (!path.isAbsolute(place))
        throw new CallFailure('invalid_input', `"${place}" is not a full path: give it from the top (like /home/archive/scans)`);
      const checked = await checkLocatePlace(place);
      // Ahead of queued work (an import's thousands of metadata jobs): the archivist is waiting for it.
      const { job, created } = core.jobs.enqueue({
        type: 'locate',
        payload: { path: checked.path, photoIds, folder: folder === undefined ? undefined : path.resolve(folder) },
        priority: 100,
      });
      return { job, created, kind: checked.kind };
    },
    'photos.missingFolders': () => core.locations.missingFolders(LISTED_FOLDERS),
    'photos.chooseLocation': async ({ kind }) => {
      const choose = kind === 'file' ? core.platform.chooseFile : core.platform.chooseFolder;
      if (!choose) throw new CallFailure('conflict', 'Choosing needs the desktop app; type the path instead');
      return { path: await choose(kind === 'file' ? 'Where is the missing photo?' : 'Where are the missing photos?') };
    },
  };
}
