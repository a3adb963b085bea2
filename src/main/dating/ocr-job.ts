/**
 * Main's half of the `ocr` job. Each date found in the text becomes OCR evidence: a written date
 * is a strong estimate (the archivist decides whether it dates the photo or something else).
 */
import { PermanentJobError } from '../../shared/jobs/errors';
import type { OcrJobType } from '../../shared/jobs/types/ocr';
import type { MainHalf } from '../jobs/registry';
import type { EvidenceRow, EvidenceStore } from '../evidence/evidence-store';
import type { PhotoRepository } from '../catalogue/photo-repository';
import type { SettingsStore } from '../settings/settings';
import { ocrEvidence, type CameraCapture } from './ocr-evidence';
import { historyEvidenceFromText } from './history-evidence';
import { OwnHistoryEntries } from './own-history-entries';
import { waitForFile } from './waiting-for-file';

/** The camera's own capture date among a photo's current findings (a camera original's EXIF), if not rejected. */
function cameraCapture(rows: EvidenceRow[]): CameraCapture | null {
  for (const r of rows) {
    if (r.source !== 'exif' || r.kind !== 'estimate' || r.review_status === 'rejected' || r.earliest === null) continue;
    try {
      const details = JSON.parse(r.details ?? '{}') as { origin?: string; field?: string };
      if (details.origin === 'capture') return { day: r.earliest, field: details.field ?? 'capture date' };
    } catch {
      /* unreadable details: not taken for a capture date */
    }
  }
  return null;
}

export interface OcrJobDeps {
  photos: PhotoRepository;
  evidence: EvidenceStore;
  /** Where the archivist's own history entries, the numeric date order and OCR's languages are kept. */
  settings: Pick<SettingsStore, 'getFlag' | 'setFlag' | 'get'>;
  onPhotoChanged(id: number): void;
}

export function ocrJob(deps: OcrJobDeps): MainHalf<OcrJobType> {
  const history = new OwnHistoryEntries(deps.settings);
  return {
    load({ payload }) {
      const photo = deps.photos.forJob(payload.photoId);
      waitForFile(photo);
      const { numericDateOrder, ocrLanguages } = deps.settings.get();
      return { path: photo.path, numericDateOrder, languages: ocrLanguages };
    },
    apply(out, job) {
      const photoId = job.payload.photoId;
      if (!deps.photos.get(photoId)) throw new PermanentJobError(`Photo ${photoId} was removed while OCR ran`);
      const { text, confidence, width, height, method, attempts, readMs } = out;
      deps.photos.setOcrReading(photoId, {
        ...{ text, confidence, lines: out.lines, width, height, method, attempts, readMs },
        jobId: job.id,
        readAt: Date.now(),
      });
      // Dates as written, then history named in the text ("V-E Day", "after the war").
      const items = [
        ...ocrEvidence(out, cameraCapture(deps.evidence.current(photoId))),
        ...historyEvidenceFromText(out.text, history.readable(), out),
      ];
      deps.evidence.recordFromJob(photoId, 'ocr', items, { id: job.id, attempt: job.attempt });
      deps.onPhotoChanged(photoId);
      const lines = `${out.lines.length} line${out.lines.length === 1 ? '' : 's'} of text`;
      return items.length ? `${lines}; ${items.length} date${items.length === 1 ? '' : 's'} found` : `${lines}; no dates found`;
    },
  };
}
