/**
 * What a file's embedded metadata says about the photo's date, and whether the file is a scan.
 *
 * A camera's original date is a strong estimate of when the photo was taken. For a scan, the EXIF
 * date is when the *scan* was made: it only bounds the photo from above ("not after"), because a
 * print cannot be scanned before it exists. Which files are scans is the archivist's call, made
 * per import (`ScanPolicy`) and per photo (`ScanOverride`); a camera make/model that is not a
 * scanner is never taken for a scan unless the archivist said so.
 *
 * A modification date (EXIF ModifyDate) says only when the file was last saved: used alone it is a
 * weak "not after" bound, pending review; beside an original date it is left out, with the reason.
 * The file system's modification date is never used (copying a file changes it).
 */
import type { ScanOverride, ScanPolicy } from '../../shared/contract';
import type { EmbeddedMetadata } from '../../shared/jobs/outputs/photo-metadata';
import { dayNum, isDayNum, toIsoDate } from '../../shared/dating';
import type { NewEvidence } from '../evidence/evidence-store';
import { cameraName, type PhotoRow } from '../catalogue/photo-repository';

export const CAMERA_DATE_CONFIDENCE = 0.9;
/** Shown as "weak": a save date holds only if the clock was right, and says nothing of the picture itself. */
export const MODIFY_DATE_CONFIDENCE = 0.3;

const CAPTURE_FIELDS: [keyof EmbeddedMetadata, string][] = [
  ['dateTimeOriginal', 'DateTimeOriginal'],
  ['createDate', 'CreateDate'],
  ['xmpDateTimeOriginal', 'XMP DateTimeOriginal'],
  ['xmpCreateDate', 'XMP CreateDate'],
];

export interface ScanDecision {
  isScan: boolean;
  /** In words, for the photo screen and the evidence. */
  reason: string;
}

export interface ScanInputs {
  /** What the import said (null: imported before it asked; read as 'detect'). */
  policy: ScanPolicy | null;
  override: ScanOverride | null;
  /** The worker's scanner detector on make/model/software. */
  scanner: { isScan: boolean; reason: string | null };
  exif: Pick<EmbeddedMetadata, 'make' | 'model'>;
}

export function decideScan({ policy, override, scanner, exif }: ScanInputs): ScanDecision {
  if (override === 'scan') return { isScan: true, reason: 'You marked this photo as a scan' };
  if (override === 'original') return { isScan: false, reason: 'You marked this photo as a camera original' };
  if (scanner.isScan) return { isScan: true, reason: scanner.reason ?? 'The EXIF names a scanner' };
  const camera = cameraName(exif.make, exif.model);
  if (camera) {
    return policy === 'all_scans'
      ? { isScan: true, reason: `The import said every file is a scan, even one made with a camera (${camera})` }
      : { isScan: false, reason: `The EXIF names a camera, ${camera}, not a scanner` };
  }
  return policy === 'originals'
    ? { isScan: false, reason: 'The EXIF names no camera or scanner, and the import said its files are camera originals' }
    : { isScan: true, reason: 'The EXIF names no camera or scanner, and the import said its files are scans' };
}

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

function captureDate(exif: EmbeddedMetadata): { day: number; raw: string; label: string } | null {
  for (const [field, label] of CAPTURE_FIELDS) {
    const raw = exif[field] as string | null;
    const day = parseExifDay(raw);
    if (day != null) return { day, raw: raw!, label };
  }
  return null;
}

export function exifDateEvidence(exif: EmbeddedMetadata, scan: ScanDecision): NewEvidence[] {
  const capture = captureDate(exif);
  const modified = parseExifDay(exif.modifyDate);
  if (!capture) {
    if (modified == null) return [];
    const iso = toIsoDate(modified);
    return [
      {
        kind: 'bound',
        earliest: null,
        latest: modified,
        precision: 'day',
        confidence: MODIFY_DATE_CONFIDENCE,
        summary: `File last saved ${iso} (EXIF ModifyDate): a weak bound — the picture existed by then, if the clock was right`,
        details: {
          origin: 'modified',
          field: 'ModifyDate',
          raw: exif.modifyDate,
          reason:
            'A modification date says when the file was last saved, not when the picture was made; it is the only date this file has.',
          ignored: [],
        },
      },
    ];
  }
  const { day, raw, label } = capture;
  const iso = toIsoDate(day);
  const ignored =
    modified != null
      ? [`ModifyDate ${exif.modifyDate}: it says when the file was last saved; the ${label} says more about the picture.`]
      : [];
  if (scan.isScan) {
    return [
      {
        kind: 'bound',
        earliest: null,
        latest: day,
        precision: 'day',
        confidence: null,
        summary: `Scanned ${iso} (EXIF ${label}): the photograph is no later than its scan`,
        details: { origin: 'scan', field: label, raw, reason: scan.reason, ignored },
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
      details: { origin: 'capture', field: label, raw, reason: scan.reason, ignored },
    },
  ];
}

/** Everything the metadata a worker read says about dating: the scan decision and the evidence. */
export function exifFindings(inputs: ScanInputs & { exif: EmbeddedMetadata }): { scan: ScanDecision; evidence: NewEvidence[] } {
  const scan = decideScan(inputs);
  return { scan, evidence: exifDateEvidence(inputs.exif, scan) };
}

/** The archivist's choices stored with a photo: its import's policy and its own override. */
export function scanChoices(photo: Pick<PhotoRow, 'scan_policy' | 'scan_override'>): Pick<ScanInputs, 'policy' | 'override'> {
  return { policy: photo.scan_policy, override: photo.scan_override };
}
