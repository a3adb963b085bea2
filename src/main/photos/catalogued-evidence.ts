/**
 * Earlier cataloguing as evidence: the creation date someone recorded in the file's IPTC
 * (DateCreated) or XMP (photoshop:DateCreated, dc:date), or in an XMP sidecar next to it. Each
 * finding names where it was read. A catalogued date is a person's earlier judgement — strong, but
 * reviewable: an estimate at its own precision ("1931-05" is May 1931), pending review.
 *
 * Not evidence: a date that is the same day as the file's EXIF camera or scan date (photo tools
 * copy that into DateCreated, so it says nothing new), and a sidecar Circa wrote itself.
 */
import path from 'node:path';
import type { EmbeddedMetadata, SidecarMetadata } from '../../shared/jobs/outputs/photo-metadata';
import { FIRST_PHOTOGRAPH_YEAR, dayNum, monthEnd, monthStart, toIsoDate, yearEnd, yearStart } from '../../shared/dating';
import type { NewEvidence } from '../evidence/evidence-store';
import { parseExifDay } from './exif-evidence';

export const CATALOGUED_DATE_CONFIDENCE = 0.8;

export interface CataloguedDate {
  earliest: number;
  latest: number;
  precision: 'day' | 'month' | 'year';
  /** As it reads: "1931", "1931-05", "1931-05-12". */
  label: string;
}

/**
 * "1931", "1931-05", "1931:05:12", "1931-05-12T10:00:00+01:00" (XMP) and "19310512", "19310500"
 * (IPTC, zeros for what is unknown) → the interval at the precision written; anything else → null.
 */
export function parseCataloguedDate(raw: string | null | undefined): CataloguedDate | null {
  const s = raw?.trim() ?? '';
  const m = /^(\d{4})(?:[-:]?(\d{2})(?:[-:]?(\d{2}))?)?(?:$|[T\s])/.exec(s);
  if (!m) return null;
  const year = Number(m[1]);
  const month = m[2] ? Number(m[2]) : 0;
  const day = m[3] ? Number(m[3]) : 0;
  if (year < FIRST_PHOTOGRAPH_YEAR || year > new Date().getFullYear() + 1 || month > 12) return null;
  const pad = (n: number) => String(n).padStart(2, '0');
  try {
    if (!month) return { earliest: yearStart(year), latest: yearEnd(year), precision: 'year', label: String(year) };
    if (!day)
      return {
        earliest: monthStart(year, month),
        latest: monthEnd(year, month),
        precision: 'month',
        label: `${year}-${pad(month)}`,
      };
    const d = dayNum(year, month, day);
    return { earliest: d, latest: d, precision: 'day', label: toIsoDate(d) };
  } catch {
    return null; // 31 February
  }
}

export function cataloguedDateEvidence(exif: EmbeddedMetadata, sidecar: SidecarMetadata | null | undefined): NewEvidence[] {
  const found: { where: string; raw: string | null; file?: string }[] = [
    { where: 'IPTC DateCreated', raw: exif.iptcDateCreated },
    { where: 'XMP photoshop:DateCreated', raw: exif.xmpDateCreated },
    { where: 'XMP dc:date', raw: exif.xmpDcDate },
  ];
  if (sidecar && !sidecar.writtenByCirca) {
    const name = path.basename(sidecar.file);
    found.push(
      { where: `XMP sidecar ${name}, photoshop:DateCreated`, raw: sidecar.dateCreated, file: sidecar.file },
      { where: `XMP sidecar ${name}, dc:date`, raw: sidecar.dcDate, file: sidecar.file },
    );
  }
  const cameraDays = new Set(
    [exif.dateTimeOriginal, exif.createDate, exif.xmpDateTimeOriginal, exif.xmpCreateDate].map(parseExifDay),
  );
  // One finding per interval, naming every place it was read.
  const byInterval = new Map<string, { date: CataloguedDate; where: string[]; raw: string[]; file?: string }>();
  for (const f of found) {
    const date = parseCataloguedDate(f.raw);
    if (!date) continue;
    if (date.precision === 'day' && cameraDays.has(date.earliest)) continue;
    const key = `${date.earliest}-${date.latest}`;
    const entry = byInterval.get(key) ?? { date, where: [], raw: [], file: f.file };
    entry.where.push(f.where);
    entry.raw.push(f.raw!);
    byInterval.set(key, entry);
  }
  return [...byInterval.values()].map(({ date, where, raw, file }) => ({
    kind: 'estimate',
    earliest: date.earliest,
    latest: date.latest,
    precision: date.precision,
    confidence: CATALOGUED_DATE_CONFIDENCE,
    summary: `Catalogued as ${date.label} (${where.join('; ')})`,
    // The places it was read, and the text found there (an exif item's details; see evidence-details.ts).
    details: { field: where.join('; '), raw: raw.join('; '), ...(file ? { sidecar: file } : {}) },
  }));
}
