/**
 * What an XMP sidecar says about a photo. Standard fields get the estimate only where XMP can hold
 * it honestly: only an estimate set by accepted findings (export-doubt.ts), never a pending or
 * clue-only one, and `photoshop:DateCreated` and `dc:date` take a single date at day, month or year
 * precision, so they are written only when the whole estimate lies within one day, month or year —
 * and at that precision (an estimate of June–August 1935 is written "1935"), never a false day.
 * Everything else goes into Circa's own namespace, documented in the README:
 *
 *   namespace http://ns.circa-photo.org/dating/1.0/ (prefix circa)
 *   circa:EDTF, circa:DACS, circa:Earliest, circa:Latest (ISO dates), circa:Status,
 *   circa:Confidence, circa:Evidence (bag: one line per current finding), circa:Explanation (seq),
 *   circa:SHA256 (of the original the sidecar describes)
 */
import { parts } from '../dating';
import type { ExportRecord } from './export-record';
import { findingLines, isFindingDate } from './export-doubt';

export const CIRCA_XMP_NAMESPACE = 'http://ns.circa-photo.org/dating/1.0/';

/** The ExifTool configuration that defines the namespace (passed with -config). */
export const CIRCA_EXIFTOOL_CONFIG = `# Circa's XMP namespace (see README, "XMP sidecars").
%Image::ExifTool::UserDefined = (
    'Image::ExifTool::XMP::Main' => {
        circa => { SubDirectory => { TagTable => 'Image::ExifTool::UserDefined::circa' } },
    },
);
%Image::ExifTool::UserDefined::circa = (
    GROUPS => { 0 => 'XMP', 1 => 'XMP-circa', 2 => 'Time' },
    NAMESPACE => { 'circa' => '${CIRCA_XMP_NAMESPACE}' },
    WRITABLE => 'string',
    EDTF => { },
    DACS => { },
    Earliest => { },
    Latest => { },
    Status => { },
    Confidence => { },
    Evidence => { List => 'Bag' },
    Explanation => { List => 'Seq' },
    SHA256 => { },
);
1;
`;

/**
 * The single XMP date that holds the whole interval of YYYYMMDD day numbers, in ExifTool's
 * notation ("1935:06:12", "1935:06", "1935"), or null when no single year does.
 */
export function xmpDateFor(earliest: number | null, latest: number | null): string | null {
  if (earliest == null || latest == null) return null;
  const a = parts(earliest);
  const b = parts(latest);
  if (a.year !== b.year) return null;
  const y = String(a.year).padStart(4, '0');
  const m = String(a.month).padStart(2, '0');
  if (a.month !== b.month) return y;
  if (a.day !== b.day) return `${y}:${m}`;
  return `${y}:${m}:${String(a.day).padStart(2, '0')}`;
}

const isoToDayNum = (iso: string | null) => (iso ? Number(iso.replaceAll('-', '')) : null);

export type XmpTags = Record<string, string | string[] | null>;

/** The tags to write for one photo; null means "remove" (used only when updating a sidecar Circa wrote). */
export function xmpTagsFor(r: ExportRecord): XmpTags {
  const e = r.estimate;
  // Only a finding is written where other programs read a fact (export-doubt.ts).
  const date = isFindingDate(r) ? xmpDateFor(isoToDayNum(e.earliest), isoToDayNum(e.latest)) : null;
  const evidence = findingLines(r);
  return {
    'XMP-photoshop:DateCreated': date,
    'XMP-dc:Date': date,
    'XMP-circa:EDTF': e.edtf,
    'XMP-circa:DACS': e.dacs,
    'XMP-circa:Earliest': e.earliest,
    'XMP-circa:Latest': e.latest,
    'XMP-circa:Status': e.status,
    'XMP-circa:Confidence': e.confidence == null ? null : String(e.confidence),
    'XMP-circa:Evidence': evidence.length ? evidence : null,
    'XMP-circa:Explanation': e.explanation.length ? e.explanation : null,
    'XMP-circa:SHA256': r.sha256,
  };
}
