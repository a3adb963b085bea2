/**
 * What an OCR run's text says about a photo's date: each date found in the text becomes OCR
 * evidence. A written date is a strong estimate (the archivist decides whether it dates the photo
 * or something else).
 */
import type { OcrJobOutput } from '../../shared/jobs/outputs/ocr';
import { toDacs } from '../../shared/dating';
import type { NewEvidence } from '../evidence/evidence-store';

const MAX_DATES = 10;

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
    const line = out.lines.find((l) => l.text.includes(d.text))?.text ?? d.text;
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
