// The EDTF of one piece of evidence for an export: as written where the evidence was read from
// text (an OCR date keeps its '?', '~', season or set: '1906-07-04?', '1906-21'), else its interval
// at the precision stored ('1906-08', '../1906-09-30'). The text is read again with the same
// readers, so the export needs no stored EDTF and old evidence gets one too.
import { decodePrecision } from './precision';
import { extractDates } from './extract-dates';
import { toEdtf } from './format';

export interface EvidenceForEdtf {
  earliest: number | null;
  latest: number | null;
  precision: string | null;
  /** What the source recorded; an OCR finding's `text` is the date as read. */
  details: Record<string, unknown> | null;
}

function asWritten(ev: EvidenceForEdtf): string | null {
  const text = ev.details?.text;
  if (typeof text !== 'string' || !text || text.length > 500) return null;
  // A date of use (a postmark) is a "not after" bound: its latest end is the date as written.
  const match = extractDates(text).find((f) => f.latest === ev.latest && (ev.earliest === null || f.earliest === ev.earliest));
  return match?.edtf ?? null;
}

export function evidenceEdtf(ev: EvidenceForEdtf): string | null {
  if (ev.earliest === null && ev.latest === null) return null;
  try {
    const written = asWritten(ev);
    if (written && ev.earliest !== null) return written;
    return toEdtf(ev.earliest, ev.latest, { precision: decodePrecision(ev.precision) });
  } catch {
    return null;
  }
}
