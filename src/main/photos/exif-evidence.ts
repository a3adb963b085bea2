/**
 * Turns the EXIF date into evidence. A camera's original date is a strong estimate of when the
 * photo was taken. For a scan, the EXIF date is when the *scan* was made: it only bounds the
 * photo from above ("not after"), because a print cannot be scanned before it exists.
 */
import type { EmbeddedMetadata } from '../../shared/jobs/outputs/photo-metadata';
import { dayNum, isDayNum, toIsoDate } from '../../shared/dating';
import type { NewEvidence } from '../evidence/evidence-store';

export const CAMERA_DATE_CONFIDENCE = 0.9;

const FIELDS: [keyof EmbeddedMetadata, string][] = [
  ['dateTimeOriginal', 'DateTimeOriginal'],
  ['createDate', 'CreateDate'],
  ['xmpDateTimeOriginal', 'XMP DateTimeOriginal'],
  ['xmpCreateDate', 'XMP CreateDate'],
];

/** "2008:05:30 15:56:01", "2008-05-30T…", "2008:05:30" → 20080530; zeros and junk → null. */
export function parseExifDay(raw: string | null | undefined): number | null {
  const m = raw ? /^(\d{4})[:-](\d{2})[:-](\d{2})/.exec(raw.trim()) : null;
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1826 || mo < 1 || d < 1) return null;
  try {
    const n = dayNum(y, mo, d);
    return isDayNum(n) ? n : null;
  } catch {
    return null;
  }
}

export function exifDateEvidence(exif: EmbeddedMetadata, opts: { isScan: boolean; why: string | null }): NewEvidence[] {
  for (const [field, label] of FIELDS) {
    const raw = exif[field] as string | null;
    const day = parseExifDay(raw);
    if (day == null) continue;
    const iso = toIsoDate(day);
    if (opts.isScan) {
      return [
        {
          kind: 'bound',
          earliest: null,
          latest: day,
          precision: 'day',
          confidence: null,
          summary: `Scanned ${iso} (EXIF ${label}): the photograph is no later than its scan`,
          details: { field: label, raw, reason: opts.why },
        },
      ];
    }
    return [
      {
        kind: 'estimate',
        earliest: day,
        latest: day,
        precision: 'day',
        confidence: CAMERA_DATE_CONFIDENCE,
        summary: `Camera recorded ${iso} (EXIF ${label})`,
        details: { field: label, raw },
      },
    ];
  }
  return [];
}
