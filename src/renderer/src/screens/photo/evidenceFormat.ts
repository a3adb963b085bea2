/** Words, colours and date arithmetic the evidence panel and the timeline share. */
import { formatPercent } from '../../../../shared/format-percent';
import type { EvidenceItem } from '../../../../shared/contract';
import { CONFIDENCE_TERMS } from '../../../../shared/dating/confidence-terms';

export type Source = EvidenceItem['source'];
export type ReviewStatus = EvidenceItem['reviewStatus'];

export const SOURCE_ORDER: Source[] = ['manual', 'note', 'ocr', 'exif', 'ai', 'duplicate'];

export const SOURCE_LABEL: Record<Source, string> = {
  exif: 'EXIF',
  ocr: 'OCR',
  ai: 'AI analysis',
  manual: 'Manual',
  duplicate: 'Duplicate',
  note: 'Notes',
};

export const SOURCE_HEADING: Record<Source, string> = {
  exif: 'From the file’s metadata (EXIF)',
  ocr: 'Text read in the photo (OCR)',
  ai: 'Visual analysis (AI)',
  manual: 'Your constraints (manual)',
  duplicate: 'From duplicates',
  note: 'Read in your notes',
};

/** Colour per source (kept in sync with the .src-* classes in styles/evidence.css). */
export const SOURCE_COLOUR: Record<Source, string> = {
  exif: '#4f6d8f',
  ocr: '#2d7466',
  ai: '#7a5a9c',
  manual: '#8a4b22',
  duplicate: '#7a7440',
  note: '#2f5f8a',
};

export const REVIEW_LABEL: Record<ReviewStatus, string> = {
  pending: 'Pending',
  accepted: 'Accepted',
  rejected: 'Rejected',
};

export const yearOf = (d: number) => Math.floor(d / 10000);

const DAYS_BEFORE_MONTH = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];

/** A YYYYMMDD day as a fractional year; `end` gives the end of that day (so 1942-12-31 ends at 1943.0). */
export function dayToYear(d: number, end = false): number {
  const y = yearOf(d);
  const m = Math.min(12, Math.max(1, Math.floor(d / 100) % 100));
  const day = Math.min(31, Math.max(1, d % 100));
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const len = leap ? 366 : 365;
  const doy = DAYS_BEFORE_MONTH[m - 1] + (leap && m > 2 ? 1 : 0) + day - 1 + (end ? 1 : 0);
  return y + Math.min(doy, len) / len;
}

/** "bound: not before", "bound: not after", "bound: between" or "estimate · evidence confidence 70%". */
export function kindLabel(item: Pick<EvidenceItem, 'kind' | 'earliest' | 'latest' | 'confidence'>): string {
  if (item.kind === 'estimate') {
    return item.confidence != null ? `estimate · ${CONFIDENCE_TERMS.evidence.name} ${percent(item.confidence)}` : 'estimate';
  }
  // A bound is a bound: no number. One stated with a confidence is a weak one (a file's save date): it says so.
  const weak = item.confidence != null ? ' · weak' : '';
  if (item.earliest != null && item.latest != null) return `bound: between${weak}`;
  if (item.earliest != null) return `bound: not before${weak}`;
  if (item.latest != null) return `bound: not after${weak}`;
  return 'bound';
}

export const percent = formatPercent;

/** A short year span for tight places: "1942", "1935–1942", "1950–", "–1945". */
export function yearSpan(earliest: number | null, latest: number | null): string {
  const a = earliest != null ? yearOf(earliest) : null;
  const b = latest != null ? yearOf(latest) : null;
  if (a != null && b != null) return a === b ? String(a) : `${a}–${b}`;
  if (a != null) return `${a}–`;
  if (b != null) return `–${b}`;
  return 'no dates';
}

/** Ids of items involved in a conflict, with the reasons (an item may be in several). */
export function conflictReasons(conflicts: { evidenceIds: number[]; reason: string }[]): Map<number, string[]> {
  const m = new Map<number, string[]>();
  for (const c of conflicts) for (const id of c.evidenceIds) m.set(id, [...(m.get(id) ?? []), c.reason]);
  return m;
}
