/**
 * The photos room registers here, once: the contract calls it answers and the main halves of its
 * job types (metadata, preview, locate). src/main/core/features.ts joins every room's registration.
 */
import type { ProductHalves } from '../jobs/registry';
import { photoCalls, type PhotoCallDeps } from './photo-calls';
import { locateCalls, type LocateCallDeps } from './locate-calls';
import { metadataJob, type MetadataJobDeps } from './metadata-job';
import { previewJob, type PreviewJobDeps } from './preview-job';
import { locateJob, type LocateJobDeps } from './locate-job';

export type PhotoJobDeps = MetadataJobDeps &
  PreviewJobDeps & { locate: Omit<LocateJobDeps, 'onPhotosChanged'>; onPhotosChanged(ids: number[]): void };

export const photosFeature = {
  calls: (core: PhotoCallDeps & LocateCallDeps) => ({ ...photoCalls(core), ...locateCalls(core) }),
  jobs: (deps: PhotoJobDeps) =>
    ({
      metadata: metadataJob(deps),
      preview: previewJob(deps),
      locate: locateJob({ ...deps.locate, onPhotosChanged: deps.onPhotosChanged }),
    }) satisfies Partial<ProductHalves>,
};
