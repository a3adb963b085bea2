/** Main's half of the `ocr` job: stores the text read and the evidence its dates give (ocr-evidence.ts). */
import { PermanentJobError } from '../../shared/jobs/errors';
import { productSpecs } from '../../shared/jobs/specs';
import { ocrJobOutputSchema, type OcrJobOutput } from '../../shared/jobs/outputs/ocr';
import type { MainJobType } from '../jobs/registry';
import type { EvidenceStore } from '../evidence/evidence-store';
import type { PhotoRepository } from '../photos/photo-repository';
import { ocrEvidence } from './ocr-evidence';

export interface OcrJobDeps {
  photos: PhotoRepository;
  evidence: EvidenceStore;
  onPhotoChanged(id: number): void;
}

export function ocrJob(deps: OcrJobDeps): MainJobType<{ photoId: number }, { path: string }, OcrJobOutput> {
  return {
    spec: { ...productSpecs.ocr, output: ocrJobOutputSchema },
    load({ payload }) {
      const photo = deps.photos.get(payload.photoId);
      if (!photo) throw new PermanentJobError(`Photo ${payload.photoId} is no longer in the library`);
      return { path: photo.path };
    },
    apply(out, job) {
      const photoId = job.payload.photoId;
      if (!deps.photos.get(photoId)) throw new PermanentJobError(`Photo ${photoId} was removed while OCR ran`);
      deps.photos.setOcrText(photoId, out.text);
      const items = ocrEvidence(out);
      deps.evidence.recordFromJob(photoId, 'ocr', items, { id: job.id, attempt: job.attempt });
      deps.onPhotoChanged(photoId);
      const lines = `${out.lines.length} line${out.lines.length === 1 ? '' : 's'} of text`;
      return items.length ? `${lines}; ${items.length} date${items.length === 1 ? '' : 's'} found` : `${lines}; no dates found`;
    },
  };
}
