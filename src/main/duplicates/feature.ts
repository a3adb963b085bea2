/** The duplicates room registers here, once: reviewing the groups the scan proposed, and the scan job's main half. */
import type { Handlers } from '../ipc/dispatcher';
import type { ProductHalves } from '../jobs/registry';
import type { DuplicateReview } from './duplicate-review';
import { duplicateScanJob, type ScanJobDeps } from './scan-job';

export const duplicatesFeature = {
  calls: ({ duplicates: review }: { duplicates: DuplicateReview }) =>
    ({
      'duplicates.list': ({ view, offset, limit }) => review.list(view, offset, limit),
      'duplicates.confirm': ({ photoIds, preferredPhotoId }) => review.confirm(photoIds, preferredPhotoId),
      'duplicates.notSame': ({ photoIds, from }) => review.notSame(photoIds, from),
      'duplicates.proposeAgain': ({ photoIds, from }) => review.proposeAgain(photoIds, from),
      'duplicates.unconfirm': ({ groupId }) => review.unconfirm(groupId),
      'duplicates.removeFromGroup': ({ photoId }) => review.removeFromGroup(photoId),
      'duplicates.setPreferred': ({ groupId, photoId }) => review.setPreferred(groupId, photoId),
    }) satisfies Partial<Handlers>,
  jobs: (deps: ScanJobDeps) => ({ duplicate_scan: duplicateScanJob(deps) }) satisfies Partial<ProductHalves>,
};
