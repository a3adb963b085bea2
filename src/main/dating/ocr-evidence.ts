/**
 * What an OCR run's text says about a photo's date: each date found in the text becomes OCR
 * evidence. A written date is a strong estimate of the picture (the archivist decides whether it
 * dates the photo or something else). A date of the object's use — a postmark, "developed",
 * "printed", "received", a copyright line, an accession or gift — only says the picture is no
 * later: a "not after" bound at its latest reading.
 *
 * Dates come only from what was read, not from texture (issue 28):
 *  - a line read below OCR_LINE_FLOOR gives no dates (a 23 % line of foliage read as "30");
 *  - each date's evidence confidence follows its own line's confidence (confidence-terms.ts), so a
 *    clear caption reads as clear and a murky line falls below the clue floor;
 *  - a line inside a print's picture area (the worker found it textured, beside a flat caption
 *    band, mount or margin: `pictureAreas`) is texture, a sign or a date stamp, not a caption: its
 *    dates are only clues, marked as read inside the picture;
 *  - on a camera original (the photo has the camera's own capture date) there is no caption, mount
 *    or margin: any text is inside the picture, so its dates are only clues, and one that misses
 *    the camera's date by decades names that conflict instead of standing as a second estimate.
 */
import { normaliseOcrText } from '../../shared/dating/ocr-normalise';
import type { OcrJobOutput } from '../../shared/jobs/outputs/ocr';
import { describeEnd, toDacs, toIsoDate, yearOf, type UseCue } from '../../shared/dating';
import { OCR_LINE_FLOOR, ocrEvidenceConfidence } from '../../shared/dating/confidence-terms';
import type { NewEvidence } from '../evidence/evidence-store';
import { insidePictureArea } from '../../shared/ocr-picture-area';

const MAX_DATES = 10;
/** A date this many years or more from the camera's own capture date contradicts it. */
export const CAPTURE_CONFLICT_YEARS = 20;
/** Picture-area dates are stated under the clue floor (DATE_CONFIDENCE_FLOOR): listed, never a date until accepted. */
export const PICTURE_AREA_CONFIDENCE = 0.3;

/** The camera's own capture date of a camera original (its EXIF evidence), when it has one. */
export interface CameraCapture {
  day: number;
  /** The EXIF field it was read from, e.g. "DateTimeOriginal". */
  field: string;
}

export const USE_LABEL: Record<UseCue, string> = {
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
type ReadLine = OcrJobOutput['lines'][number];

/** The line a date was read on. Dates are found in the normalised text ("Summer '62" where OCR read "Summer \"62"). */
function lineOf(d: FoundInText, out: OcrJobOutput): ReadLine | null {
  return out.lines.find((l) => normaliseOcrText(l.text).text.includes(d.text)) ?? null;
}

/** Years between a date's interval and the capture day (0 when the interval holds it). */
function yearsFrom(d: FoundInText, capture: CameraCapture): number {
  const year = yearOf(capture.day);
  return Math.max(0, yearOf(d.earliest) - year, year - yearOf(d.latest));
}

/** Why a date read on `line` is only a clue, or null when it may date the photo. */
function clueReason(out: OcrJobOutput, line: ReadLine | null, capture: CameraCapture | null): string | null {
  if (capture) return 'read inside the picture of a camera original, not on a caption, mount or margin';
  if (line && insidePictureArea(line.bbox, out.pictureAreas))
    return 'read inside the picture area of the print, not on its caption band, mount or margin';
  return null;
}

function fromDate(d: FoundInText, out: OcrJobOutput, line: ReadLine | null, capture: CameraCapture | null): NewEvidence {
  const lineConfidence = line?.confidence ?? out.confidence;
  const clue = clueReason(out, line, capture);
  const details = {
    text: d.text,
    line: line?.text ?? d.text,
    reason: d.reason,
    ocrConfidence: Math.round(out.confidence),
    lineConfidence: Math.round(lineConfidence),
    use: d.use ?? null,
    ...(clue ? { clue } : {}),
  };
  const apart = capture ? yearsFrom(d, capture) : 0;
  const conflict =
    capture && apart >= CAPTURE_CONFLICT_YEARS
      ? `; contradicts the camera’s own date (${toIsoDate(capture.day)}, EXIF ${capture.field}) by ${apart} years`
      : '';
  const captureConflict = conflict ? { captureConflict: { day: capture!.day, field: capture!.field, years: apart } } : {};
  if (d.use) {
    return {
      kind: 'bound',
      earliest: null,
      latest: d.latest,
      precision: d.precision,
      // A bound read in the picture is only a weak one: a clue until accepted.
      confidence: clue ? PICTURE_AREA_CONFIDENCE : null,
      summary: `${USE_LABEL[d.use.cue]} “${d.text}”: the photograph is not after ${describeEnd(d.latest, d.precision)}${conflict}`,
      details: { ...details, ...captureConflict },
    };
  }
  const confidence = ocrEvidenceConfidence(d.confidence, lineConfidence);
  return {
    kind: 'estimate',
    earliest: d.earliest,
    latest: d.latest,
    precision: d.precision,
    confidence: clue ? Math.min(confidence, PICTURE_AREA_CONFIDENCE) : confidence,
    summary: `Text reads “${d.text}”: ${toDacs(d.earliest, d.latest, { approximate: d.approximate, precision: d.precision })}${conflict}`,
    details: { ...details, ...captureConflict },
  };
}

/**
 * The evidence in one OCR reading. `capture`: the camera's own date when the photo is a camera
 * original (then every date is a clue, see the header), else null. A date read on a line inside
 * the reading's picture areas is a clue too.
 */
export function ocrEvidence(out: OcrJobOutput, capture: CameraCapture | null = null): NewEvidence[] {
  const seen = new Set<string>();
  const items: NewEvidence[] = [];
  for (const d of out.dates) {
    const line = lineOf(d, out);
    if ((line?.confidence ?? out.confidence) < OCR_LINE_FLOOR) continue;
    const item = fromDate(d, out, line, capture);
    const key = `${item.kind}:${item.earliest}-${item.latest}`;
    if (seen.has(key) || items.length >= MAX_DATES) continue;
    seen.add(key);
    items.push(item);
  }
  return items;
}
