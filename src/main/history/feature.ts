/** The history room registers here, once: the archivist's last action on a photo, and undoing it. */
import type { Handlers } from '../ipc/dispatcher';
import type { LibraryDb } from '../db/open';
import type { PhotoRepository } from '../catalogue/photo-repository';
import { CallFailure } from '../../shared/result';
import type { ActionLog } from './action-log';

export interface HistoryCallDeps {
  db: LibraryDb;
  photos: Pick<PhotoRepository, 'get'>;
  actions: ActionLog;
  /** An undone action's photos get their estimate again (the evidence room's, given by the core). */
  evidence: { recompute(photoId: number): unknown };
  photosChanged(ids: Iterable<number>): void;
}

export const historyFeature = {
  calls: (core: HistoryCallDeps) =>
    ({
      'history.last': ({ photoId }) => {
        if (!core.photos.get(photoId)) throw new CallFailure('not_found', `There is no photo ${photoId}`);
        return { action: core.actions.last(photoId) };
      },
      'history.undo': ({ actionId, photoId }) => {
        const done = core.db.immediate(() => core.actions.undo(actionId, photoId, (p) => core.evidence.recompute(p)));
        core.photosChanged(done.photoIds);
        return { ...done, next: photoId !== undefined ? core.actions.last(photoId) : null };
      },
    }) satisfies Partial<Handlers>,
};
