/**
 * Main's half of the `metadata` job: `load` tells the worker which file to read and where to put
 * the thumbnail; `apply` stores what it found and records the EXIF date as evidence, in the
 * transaction that marks the job done; `onFailed` marks the photo failed (or missing).
 */
import path from 'node:path';
import { PermanentJobError } from '../../shared/jobs/errors';
import { productSpecs } from '../../shared/jobs/specs';
import { photoMetadataSchema, type PhotoMetadata } from '../../shared/jobs/outputs/photo-metadata';
import type { MainJobType } from '../jobs/registry';
import type { EvidenceStore } from '../evidence/evidence-store';
import type { SettingsStore } from '../settings/settings';
import type { PhotoRepository } from './photo-repository';
import { exifFindings, scanChoices } from './exif-evidence';

/** Larger files are refused before they are read (a 600 dpi 16-bit TIFF of a large print is ~1 GB). */
export const MAX_FILE_BYTES = 1536 * 1024 * 1024;
/** Decoding more pixels than this is refused (pixel bombs); 400 MP covers 20,000 × 20,000 px scans. */
export const MAX_INPUT_PIXELS = 400_000_000;

export interface MetadataJobDeps {
  photos: PhotoRepository;
  evidence: EvidenceStore;
  settings: SettingsStore;
  thumbnailsDir: string;
  libraryDir: string;
  onPhotoChanged(id: number): void;
}

export interface MetadataInput {
  path: string;
  expected: { size: number; sha256: string };
  thumbnailPath: string;
  maxFileBytes: number;
  maxInputPixels: number;
}

export function thumbnailPathFor(thumbnailsDir: string, sha256: string): string {
  return path.join(thumbnailsDir, sha256.slice(0, 2), `${sha256}.jpg`);
}

export function metadataJob(deps: MetadataJobDeps): MainJobType<{ photoId: number }, MetadataInput, PhotoMetadata> {
  return {
    spec: { ...productSpecs.metadata, output: photoMetadataSchema },
    load({ payload }) {
      const photo = deps.photos.get(payload.photoId);
      if (!photo) throw new PermanentJobError(`Photo ${payload.photoId} is no longer in the library`);
      return {
        path: photo.path,
        expected: { size: photo.size, sha256: photo.sha256 },
        thumbnailPath: thumbnailPathFor(deps.thumbnailsDir, photo.sha256),
        maxFileBytes: MAX_FILE_BYTES,
        maxInputPixels: MAX_INPUT_PIXELS,
      };
    },
    apply(output, job) {
      const photoId = job.payload.photoId;
      const photo = deps.photos.get(photoId);
      if (!photo) throw new PermanentJobError(`Photo ${photoId} was removed while its metadata was read`);
      const { scan, evidence: found } = exifFindings({ ...scanChoices(photo), scanner: output.scanner, exif: output.exif });
      deps.photos.applyMetadata(photoId, output, path.relative(deps.libraryDir, output.thumbnail.path), scan);
      deps.evidence.recordFromJob(photoId, 'exif', found, { id: job.id, attempt: job.attempt });
      deps.onPhotoChanged(photoId);
      const dims = `${output.displayWidth}×${output.displayHeight} ${output.format}`;
      return found.length ? `${dims}; ${found[0].summary}` : `${dims}; no EXIF date`;
    },
    onFailed(job, message) {
      deps.photos.markMetadataFailed(job.payload.photoId, message, /not found|no such file/i.test(message));
      deps.onPhotoChanged(job.payload.photoId);
    },
  };
}
