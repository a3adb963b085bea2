/**
 * The export's record of one photo, and the versioned, documented JSON document that holds them
 * (`circa-export`, schemaVersion 1). The schema is zod so an export can be read back — by Circa,
 * or validated by anyone — with `parseCircaExport`. Dates of photos are ISO calendar dates
 * ("1935-01-01"); intervals are inclusive; an open end is null.
 *
 * Main reads raw rows in short chunks (ExportPhotoRow); the worker turns them into records, so the
 * JSON parsing and formatting happens off main's thread.
 */
import { z } from 'zod';
import { toIsoDate } from '../dating';
import { evidenceEdtf } from '../dating/evidence-edtf';
import { estimateViewSchema } from '../estimate-view';
import { findingLines, needsReviewText } from './export-doubt';

export const EXPORT_SCHEMA_VERSION = 1;

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .describe('an ISO calendar date, e.g. 1935-06-01');
const isoDateTime = z.string().describe('an ISO 8601 timestamp (UTC)');

export const exportEvidenceSchema = z
  .object({
    id: z.number().int().describe('the evidence id in the library'),
    source: z.enum(['exif', 'ocr', 'ai', 'manual', 'duplicate', 'note']).describe('what found it'),
    kind: z.enum(['bound', 'estimate']).describe('bound: a hard limit; estimate: a soft, weighed finding'),
    earliest: isoDate.nullable().describe('first day of the interval it proposes (null: open)'),
    latest: isoDate.nullable().describe('last day of the interval (null: open)'),
    precision: z.string().nullable(),
    edtf: z
      .string()
      .nullable()
      .default(null)
      .describe(
        "the interval in EDTF, as written where it was read from text: '1906-07-04?' uncertain, '1906~' approximate, '1906-21' a season",
      ),
    confidence: z.number().nullable().describe('0..1, for estimates'),
    summary: z.string(),
    details: z.record(z.string(), z.unknown()).nullable().describe('what the source recorded (OCR text, EXIF field …)'),
    reviewStatus: z.enum(['pending', 'accepted', 'rejected']),
    reviewNote: z.string().nullable(),
    superseded: z.boolean().describe('replaced by a later run of the same source (history)'),
    job: z
      .object({ id: z.number().int(), attempt: z.number().int().nullable() })
      .nullable()
      .describe('the job attempt that produced it'),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .strict();

export const exportRecordSchema = z
  .object({
    id: z.number().int(),
    path: z.string().describe('where the original is; never copied or changed'),
    filename: z.string(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    size: z.number().int(),
    format: z.string().nullable(),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    orientation: z.number().int().nullable(),
    camera: z.string().nullable(),
    exifDate: z.string().nullable().describe('the EXIF date as written in the file'),
    isScan: z.boolean().nullable(),
    missing: z.boolean().describe('the original was not found at its path'),
    metadataStatus: z.enum(['pending', 'ready', 'failed']),
    importedAt: isoDateTime,
    notes: z.string(),
    metadata: z.record(z.string(), z.unknown()).nullable().describe('the EXIF/XMP/IPTC fields read from the file'),
    estimate: z
      .object({
        status: z.enum(['undated', 'needs_review', 'estimated', 'conflict']),
        earliest: isoDate.nullable(),
        latest: isoDate.nullable(),
        edtf: z.string().nullable().describe('Extended Date/Time Format, e.g. 1935/1942, 1925~, ../1867'),
        dacs: z.string().nullable().describe('DACS wording, e.g. "circa 1935-1942"'),
        confidence: z.number().nullable(),
        earliestSetBy: z.array(z.number().int()).describe('evidence ids that set the lower end'),
        latestSetBy: z.array(z.number().int()),
        conflicts: estimateViewSchema.shape.conflicts,
        explanation: z.array(z.string()),
        clueIds: z.array(z.number().int()).optional().describe('evidence that is only a clue, never counted as a date'),
        withClues: estimateViewSchema.shape.withClues
          .unwrap()
          .optional()
          .describe('what the estimate would say if the clues counted (null: no clues)'),
      })
      .strict(),
    evidence: z.array(exportEvidenceSchema).describe('every finding, current and superseded, oldest first'),
    manualConstraints: z
      .array(
        z.object({ evidenceId: z.number().int(), constraint: z.unknown(), note: z.string(), reviewStatus: z.string() }).strict(),
      )
      .describe("the archivist's own constraints (also among the evidence)"),
  })
  .strict();
export type ExportRecord = z.infer<typeof exportRecordSchema>;

export const circaExportSchema = z
  .object({
    format: z.literal('circa-export'),
    schemaVersion: z.literal(EXPORT_SCHEMA_VERSION),
    exportedAt: isoDateTime,
    app: z.object({ name: z.literal('Circa'), version: z.string() }).strict(),
    photos: z.array(exportRecordSchema),
  })
  .strict();
export type CircaExport = z.infer<typeof circaExportSchema>;

/** Reads an export back (throws a ZodError that names the first wrong field). */
export function parseCircaExport(text: string): CircaExport {
  return circaExportSchema.parse(JSON.parse(text.replace(/^\ufeff/, '')));
}

export interface ExportEvidenceRow {
  id: number;
  source: ExportRecord['evidence'][number]['source'];
  kind: 'bound' | 'estimate';
  earliest: number | null;
  latest: number | null;
  precision: string | null;
  confidence: number | null;
  summary: string;
  details: string | null;
  job_id: number | null;
  attempt: number | null;
  review_status: 'pending' | 'accepted' | 'rejected';
  review_note: string | null;
  superseded_at: number | null;
  created_at: number;
  updated_at: number;
}

/** One photo as main reads it for an export: raw columns, JSON still as text. */
export interface ExportPhotoRow {
  id: number;
  path: string;
  filename: string;
  sha256: string;
  size: number;
  format: string | null;
  width: number | null;
  height: number | null;
  orientation: number | null;
  camera: string | null;
  exif_date: string | null;
  is_scan: number | null;
  missing: number;
  metadata_status: 'pending' | 'ready' | 'failed';
  notes: string;
  exif: string | null;
  estimate_status: ExportRecord['estimate']['status'];
  estimate: string | null;
  imported_at: number;
  evidence: ExportEvidenceRow[];
  /** The sidecar's file name in the export folder (unique within the library). */
  sidecarName: string;
}

const iso = (n: number | null) => (n == null ? null : toIsoDate(n));
const when = (ms: number) => new Date(ms).toISOString();

function parseObject(text: string | null): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export function toExportRecord(row: ExportPhotoRow): ExportRecord {
  const stored = estimateViewSchema.safeParse(parseObject(row.estimate));
  const e = stored.success ? stored.data : null;
  // Main reads them in index order (by photo); oldest first here, off main's thread.
  const evidence = [...row.evidence]
    .sort((a, b) => a.id - b.id)
    .map((ev) => {
      const details = parseObject(ev.details);
      return {
        id: ev.id,
        source: ev.source,
        kind: ev.kind,
        earliest: iso(ev.earliest),
        latest: iso(ev.latest),
        precision: ev.precision,
        edtf: evidenceEdtf({ earliest: ev.earliest, latest: ev.latest, precision: ev.precision, details }),
        confidence: ev.confidence,
        summary: ev.summary,
        details,
        reviewStatus: ev.review_status,
        reviewNote: ev.review_note,
        superseded: ev.superseded_at != null,
        job: ev.job_id == null ? null : { id: ev.job_id, attempt: ev.attempt },
        createdAt: when(ev.created_at),
        updatedAt: when(ev.updated_at),
      };
    });
  return {
    id: row.id,
    path: row.path,
    filename: row.filename,
    sha256: row.sha256,
    size: row.size,
    format: row.format,
    width: row.width,
    height: row.height,
    orientation: row.orientation,
    camera: row.camera,
    exifDate: row.exif_date,
    isScan: row.is_scan == null ? null : !!row.is_scan,
    missing: !!row.missing,
    metadataStatus: row.metadata_status,
    importedAt: when(row.imported_at),
    notes: row.notes,
    metadata: parseObject(row.exif),
    estimate: {
      status: row.estimate_status,
      earliest: iso(e?.earliest ?? null),
      latest: iso(e?.latest ?? null),
      edtf: e?.edtf ?? null,
      dacs: e?.dacs ?? null,
      confidence: e?.confidence ?? null,
      earliestSetBy: e?.earliestSetBy ?? [],
      latestSetBy: e?.latestSetBy ?? [],
      conflicts: e?.conflicts ?? [],
      explanation: e?.explanation ?? [],
      clueIds: e?.clueIds ?? [],
      withClues: e?.withClues ?? null,
    },
    evidence,
    manualConstraints: evidence
      .filter((ev) => ev.source === 'manual' && !ev.superseded)
      .map((ev) => ({
        evidenceId: ev.id,
        constraint: ev.details?.constraint ?? null,
        note: typeof ev.details?.note === 'string' ? ev.details.note : '',
        reviewStatus: ev.reviewStatus,
      })),
  };
}

export const CSV_COLUMNS = [
  'id',
  'file path',
  'filename',
  'sha256',
  'estimate (EDTF)',
  'estimate (DACS)',
  'earliest',
  'latest',
  'estimate status',
  'confidence',
  'accepted evidence',
  'pending evidence',
  'notes',
  'needs review',
  'evidence (source, kind, interval, review, reading)',
  'clues only, not a date (DACS)',
  'evidence (EDTF)',
] as const;

/** The CSV row of a record, in CSV_COLUMNS order (current evidence only in the counts). */
export function csvCellsFor(r: ExportRecord): (string | number | null)[] {
  const current = r.evidence.filter((e) => !e.superseded);
  return [
    r.id,
    r.path,
    r.filename,
    r.sha256,
    r.estimate.edtf,
    r.estimate.dacs,
    r.estimate.earliest,
    r.estimate.latest,
    r.estimate.status,
    r.estimate.confidence,
    current.filter((e) => e.reviewStatus === 'accepted').length,
    current.filter((e) => e.reviewStatus === 'pending').length,
    r.notes,
    needsReviewText(r),
    findingLines(r).join('\n'),
    r.estimate.withClues?.dacs ?? null,
    // Each current finding not rejected, as written: '1906-07-04?; 1906-21'.
    current
      .filter((e) => e.reviewStatus !== 'rejected' && e.edtf)
      .map((e) => e.edtf)
      .join('; '),
  ];
}
