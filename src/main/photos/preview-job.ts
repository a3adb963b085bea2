/**
 * Main's half of the `preview` job (the zoom view): `load` names the file, what it must still be,
 * and where its pyramid goes; `apply` has nothing to store (the pyramid on disk is the record, so
 * deleting the previews folder only means views are made again) and says what was made.
 */
import { PYRAMID_TILE_SIZE, previewJobType, type PreviewJobType } from '../../shared/jobs/types/preview';
import { formatBytes } from '../../shared/format-bytes';
import type { MainHalf } from '../jobs/registry';
import { pyramidDirFor } from '../media/pyramid-files';
import type { PhotoRepository } from '../catalogue/photo-repository';

export interface PreviewJobDeps {
  photos: PhotoRepository;
  previewsDir: string;
  onPhotoChanged(id: number): void;
}

export function previewJob(deps: PreviewJobDeps): MainHalf<PreviewJobType> {
  const { maxFileBytes, maxInputPixels } = previewJobType.limits;
  return {
    load({ payload }) {
      const photo = deps.photos.forJob(payload.photoId);
      return {
        path: photo.path,
        expected: { size: photo.size, sha256: photo.sha256 },
        outputDir: pyramidDirFor(deps.previewsDir, photo.sha256),
        tileSize: PYRAMID_TILE_SIZE,
        maxFileBytes,
        maxInputPixels,
      };
    },
    apply(out, job) {
      deps.onPhotoChanged(job.payload.photoId);
      return `${out.width}×${out.height} px in ${out.levels} levels, ${out.tiles.toLocaleString('en-US')} tiles (${formatBytes(out.bytes)})`;
    },
  };
}
