/** The evidence room registers here, once: the contract calls that list and review a photo's evidence. */
import type { Handlers } from '../ipc/dispatcher';
import type { EvidenceService } from './evidence-service';

export const evidenceFeature = {
  calls: ({ evidenceService: evidence }: { evidenceService: EvidenceService }) =>
    ({
      'evidence.list': ({ photoId, includeSuperseded }) => evidence.list(photoId, includeSuperseded),
      'evidence.review': ({ id, status, note }) => evidence.review(id, status, note),
      'evidence.reviewMany': (q) => evidence.reviewMany(q),
      'evidence.addManual': ({ photoId, constraint, note }) => evidence.addManual(photoId, constraint, note),
      'evidence.updateManual': ({ id, constraint, note }) => evidence.updateManual(id, constraint, note),
      'evidence.removeManual': ({ id }) => evidence.removeManual(id),
    }) satisfies Partial<Handlers>,
};
