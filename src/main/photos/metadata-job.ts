/**
 * Main's half of the `metadata` job: `load` tells the worker which file to read and where to put
 * the thumbnail; `apply` stores what it found and records the EXIF date as evidence, in the
 * transaction that marks the job done; `onFailed` marks the photo failed (or missing).
 */
import path from 'node:path';
import { PermanentJobError } from '../../shared/jobs/errors';
import { metadataJobType, type MetadataJobType } from '../../shared/jobs/types/metadata';
import type { MainHalf } from '../jobs/registry';
import type { EvidenceStore } from '../evidence/evidence-store';
import type { PhotoHashStore } from '../duplicates/photo-hash-store';
import type { SettingsStore } from '../settings/settings';
import type { PhotoRepository } from '../catalogue/photo-repository';
import { exifFindings, scanChoices } from './exif-evidence';
import { cataloguedDateEvidence } from './catalogued-evidence';
import type { FileStamps } from './file-stamps';

export interface MetadataJobDeps {
  photos: PhotoRepository;
  evidence: EvidenceStore;
  photoHashes: PhotoHashStore;
  settings: SettingsStore;
  /** The stamps the import took while hashing: handed to the worker, which then need not hash again. */
  stamps: FileStamps;
  thumbnailsDir: string;
  libraryDir: string;
  onPhotoChanged(id: number): void;
}

export function thumbnailPathFor(thumbnailsDir: string, sha256: string): string {
  return path.join(thumbnailsDir, sha256.slice(0, 2), `${sha256}.jpg`);
}

export function metadataJob(deps: MetadataJobDeps): MainHalf<MetadataJobType> {
  const { maxFileBytes, maxInputPixels } = metadataJobType.limits;
  return {
    load({ payload }) {
      const photo = deps.photos.forJob(payload.photoId);
      const stamp = deps.stamps.take(photo.id, photo.sha256);
      return {
        path: photo.path,
        expected: { size: photo.size, sha256: photo.sha256, ...(stamp ? { stamp } : {}) },
        thumbnailPath: thumbnailPathFor(deps.thumbnailsDir, photo.sha256),
        maxFileBytes,
        maxInputPixels,
      };
    },
    apply(output, job) {
      const photoId = job.payload.photoId;
      const photo = deps.photos.get(photoId);
      if (!photo) throw new PermanentJobError(`Photo ${photoId} was removed while its metadata was read`);
      const { scan, evidence } = exifFindings({ ...scanChoices(photo), scanner: output.scanner, exif: output.exif });
      deps.photos.applyMetadata(photoId, output, path.relative(deps.libraryDir, output.thumbnail.path), scan);
      // Earlier cataloguing (a sidecar next to the file, embedded IPTC/XMP dates) is evidence too.
      const found = [...evidence, ...cataloguedDateEvidence(output.exif, output.sidecar)];
      deps.photoHashes.record(photoId, output.duplicateHashes);
      deps.evidence.recordFromJob(photoId, 'exif', found, { id: job.id, attempt: job.attempt });
      deps.onPhotoChanged(photoId);
      // A multi-page file is read at its first page: the summary says so (the photo keeps the count).
      const pages = output.pages ? `, ${output.format === 'tiff' ? 'page' : 'frame'} 1 of ${output.pages}` : '';
      const dims = `${output.displayWidth}×${output.displayHeight} ${output.format}${pages}`;
      return found.length ? `${dims}; ${found[0].summary}` : `${dims}; no EXIF date`;
    },
    onFailed(job, message) {
      deps.photos.markMetadataFailed(job.payload.photoId, message, /not found|no such file/i.test(message));
      deps.onPhotoChanged(job.payload.photoId);
    },
  };
}
