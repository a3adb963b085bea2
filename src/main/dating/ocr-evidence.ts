/**
 * What an OCR run's text says about a photo's date: each date found in the text becomes OCR
 * evidence. A written date is a strong estimate of the picture (the archivist decides whether it
 * dates the photo or something else). A date of the object's use — a postmark, "developed",
 * "printed", "received", a copyright line, an accession or gift — only says the picture is no
 * later: a "not after" bound at its latest reading.
 */
import { normaliseOcrText } from '../../shared/dating/ocr-normalise';
import type { OcrJobOutput } from '../../shared/jobs/outputs/ocr';
import { describeEnd, toDacs, type UseCue } from '../../shared/dating';
import type { NewEvidence } from '../evidence/evidence-store';

const MAX_DATES = 10;

/** How far to trust a date read by OCR: the extractor's own confidence, tempered by how clearly the text was read. */
export function ocrEvidenceConfidence(dateConfidence: number, ocrConfidence: number): number {
  const clarity = Math.max(0, Math.min(1, ocrConfidence / 90));
  return Math.round(dateConfidence * (0.5 + 0.5 * clarity) * 100) / 100;
}

const USE_LABEL: Record<UseCue, string> = {
  postmark: 'Postmark',
  processing: 'Developed',
  printing: 'Printed',
  receipt: 'Received',
  copyright: 'Copyright',
  accession: 'Accessioned',
  gift: 'Gift',
  digitisation: 'Scanned',
};

type FoundInText = OcrJobOutput['dates'][number];

function fromDate(d: FoundInText, out: OcrJobOutput): NewEvidence {
  // Dates are found in the normalised text ("Summer '62" where OCR read "Summer \"62").
  const line = out.lines.find((l) => normaliseOcrText(l.text).text.includes(d.text))?.text ?? d.text;
  const details = { text: d.text, line, reason: d.reason, ocrConfidence: Math.round(out.confidence), use: d.use ?? null };
  if (d.use) {
    return {
      kind: 'bound',
      earliest: null,
      latest: d.latest,
      precision: d.precision,
      confidence: null,
      summary: `${USE_LABEL[d.use.cue]} “${d.text}”: the photograph is not after ${describeEnd(d.latest, d.precision)}`,
      details,
    };
  }
  return {
    kind: 'estimate',
    earliest: d.earliest,
    latest: d.latest,
    precision: d.precision,
    confidence: ocrEvidenceConfidence(d.confidence, out.confidence),
    summary: `Text reads “${d.text}”: ${toDacs(d.earliest, d.latest, { approximate: d.approximate, precision: d.precision })}`,
    details,
  };
}

export function ocrEvidence(out: OcrJobOutput): NewEvidence[] {
  const seen = new Set<string>();
  const items: NewEvidence[] = [];
  for (const d of out.dates) {
    const item = fromDate(d, out);
    const key = `${item.kind}:${item.earliest}-${item.latest}`;
    if (seen.has(key) || items.length >= MAX_DATES) continue;
    seen.add(key);
    items.push(item);
  }
  return items;
}
