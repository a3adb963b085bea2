/**
 * Main's half of the `ocr` job. Each date found in the text becomes OCR evidence: a written date
 * is a strong estimate (the archivist decides whether it dates the photo or something else).
 */
import { PermanentJobError } from '../../shared/jobs/errors';
import type { OcrJobType } from '../../shared/jobs/types/ocr';
import type { MainHalf } from '../jobs/registry';
import type { EvidenceStore } from '../evidence/evidence-store';
import type { PhotoRepository } from '../photos/photo-repository';
import type { SettingsStore } from '../settings/settings';
import { ocrEvidence } from './ocr-evidence';

export interface OcrJobDeps {
  photos: PhotoRepository;
  evidence: EvidenceStore;
  settings: Pick<SettingsStore, 'get'>;
  onPhotoChanged(id: number): void;
}

export function ocrJob(deps: OcrJobDeps): MainHalf<OcrJobType> {
  return {
    load({ payload }) {
      const photo = deps.photos.forJob(payload.photoId);
      return { path: photo.path, numericDateOrder: deps.settings.get().numericDateOrder };
    },
    apply(out, job) {
      const photoId = job.payload.photoId;
      if (!deps.photos.get(photoId)) throw new PermanentJobError(`Photo ${photoId} was removed while OCR ran`);
      const { text, confidence, width, height, method } = out;
      deps.photos.setOcrReading(photoId, {
        ...{ text, confidence, lines: out.lines, width, height, method },
        jobId: job.id,
        readAt: Date.now(),
      });
      const items = ocrEvidence(out);
      deps.evidence.recordFromJob(photoId, 'ocr', items, { id: job.id, attempt: job.attempt });
      deps.onPhotoChanged(photoId);
      const lines = `${out.lines.length} line${out.lines.length === 1 ? '' : 's'} of text`;
      return items.length ? `${lines}; ${items.length} date${items.length === 1 ? '' : 's'} found` : `${lines}; no dates found`;
    },
  };
}
