/**
 * Main's half of the `ocr` job. Each date found in the text becomes OCR evidence: a written date
 * is a strong estimate (the archivist decides whether it dates the photo or something else).
 */
import { PermanentJobError } from '../../shared/jobs/errors';
import { productSpecs } from '../../shared/jobs/specs';
import { ocrJobOutputSchema, type OcrJobOutput } from '../../shared/jobs/outputs/ocr';
import { toDacs } from '../../shared/dating';
import { normaliseOcrText } from '../../shared/dating/ocr-normalise';
import type { MainJobType } from '../jobs/registry';
import type { EvidenceStore, NewEvidence } from '../evidence/evidence-store';
import type { PhotoRepository } from '../photos/photo-repository';

const MAX_DATES = 10;

export interface OcrJobDeps {
  photos: PhotoRepository;
  evidence: EvidenceStore;
  onPhotoChanged(id: number): void;
}

/** How far to trust a date read by OCR: the extractor's own confidence, tempered by how clearly the text was read. */
export function ocrEvidenceConfidence(dateConfidence: number, ocrConfidence: number): number {
  const clarity = Math.max(0, Math.min(1, ocrConfidence / 90));
  return Math.round(dateConfidence * (0.5 + 0.5 * clarity) * 100) / 100;
}

export function ocrEvidence(out: OcrJobOutput): NewEvidence[] {
  const seen = new Set<string>();
  const items: NewEvidence[] = [];
  for (const d of out.dates) {
    const key = `${d.earliest}-${d.latest}`;
    if (seen.has(key) || items.length >= MAX_DATES) continue;
    seen.add(key);
    // Dates are found in the normalised text ("Summer '62" where OCR read "Summer \"62").
    const line = out.lines.find((l) => normaliseOcrText(l.text).text.includes(d.text))?.text ?? d.text;
    items.push({
      kind: 'estimate',
      earliest: d.earliest,
      latest: d.latest,
      precision: d.precision,
      confidence: ocrEvidenceConfidence(d.confidence, out.confidence),
      summary: `Text reads “${d.text}”: ${toDacs(d.earliest, d.latest, { approximate: d.approximate })}`,
      details: { text: d.text, line, reason: d.reason, ocrConfidence: Math.round(out.confidence) },
    });
  }
  return items;
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
