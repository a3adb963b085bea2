/** SQL for photos: insert on import, keyset-paginated listing for the grid, metadata results. */
import type Database from 'better-sqlite3';
import type { PhotoSummary, ScanOverride, ScanPolicy } from '../../shared/contract';
import type { PhotoMetadata } from '../../shared/jobs/outputs/photo-metadata';
import { DATE_KEY_SQL } from '../db/schema';

export interface PhotoRow {
  id: number;
  sha256: string;
  path: string;
  filename: string;
  size: number;
  mtime_ms: number | null;
  format: string | null;
  width: number | null;
  height: number | null;
  orientation: number | null;
  display_width: number | null;
  display_height: number | null;
  thumbnail: string | null;
  phash: string | null;
  exif: string | null;
  camera: string | null;
  exif_date: string | null;
  is_scan: number | null;
  scan_policy: ScanPolicy | null;
  scan_override: ScanOverride | null;
  scanner_reason: string | null;
  scan_reason: string | null;
  metadata_status: 'pending' | 'ready' | 'failed';
  metadata_error: string | null;
  missing: number;
  notes: string;
  ocr_text: string;
  estimate_status: PhotoSummary['estimateStatus'];
  estimate_earliest: number | null;
  estimate_latest: number | null;
  estimate: string | null;
  imported_at: number;
  updated_at: number;
}

export interface NewPhoto {
  sha256: string;
  path: string;
  filename: string;
  size: number;
  mtimeMs: number;
  /** What the import said about its files (see exif-evidence.ts). */
  scanPolicy?: ScanPolicy;
}

/**
 * Turns what the user typed into an FTS5 query: every word must match as a prefix, in the
 * filename, the notes or the OCR text ("xmas 194" finds "Xmas 1942"). Quoting each word keeps
 * FTS syntax characters from being interpreted.
 */
export function ftsQuery(input: string): string | null {
  const words = input.match(/[\p{L}\p{N}]+/gu)?.slice(0, 12) ?? [];
  return words.length ? words.map((w) => `"${w}"*`).join(' ') : null;
}

export type PhotoSort = 'imported' | 'filename' | 'date';
/** within: the estimate lies inside the years; overlaps: it could be from them (open ends reach). */
export type YearMode = 'within' | 'overlaps';
export type PhotoFilter =
  'all' | 'needs_metadata' | 'failed' | 'missing' | 'has_evidence' | 'undated' | 'needs_review' | 'conflict';
export interface PhotoCursor {
  v: string | number | null;
  id: number;
}

/** A photo not read yet: its latest metadata job (one lookup in the subject index), for the tile to show. */
const METADATA_JOB_SQL = `CASE WHEN metadata_status = 'pending' THEN (
    SELECT json_object('id', j.id, 'status', j.status, 'runAfter', j.run_after, 'errorMessage', j.error_message)
      FROM background_jobs j WHERE j.subject = 'photo:' || photos.id AND j.type = 'metadata' ORDER BY j.id DESC LIMIT 1
  ) END`;

const SUMMARY_COLUMNS = `id, filename, path, format, display_width, display_height, thumbnail, sha256, metadata_status,
  metadata_error, missing, camera, exif_date, estimate_status, estimate_earliest, estimate_latest,
  json_extract(estimate, '$.dacs') AS estimate_label, imported_at, ${DATE_KEY_SQL} AS date_key,
  ${METADATA_JOB_SQL} AS metadata_job`;

const FILTERS: Record<PhotoFilter, string> = {
  all: '1',
  needs_metadata: "metadata_status = 'pending'",
  failed: "metadata_status = 'failed'",
  missing: 'missing = 1',
  has_evidence:
    "EXISTS (SELECT 1 FROM evidence e WHERE e.photo_id = photos.id AND e.superseded_at IS NULL AND e.review_status != 'rejected')",
  undated: "estimate_status = 'undated'",
  needs_review: "estimate_status = 'needs_review'",
  conflict: "estimate_status = 'conflict'",
};

/** ORDER BY and the keyset condition that continues after a cursor, per sort. */
const SORTS: Record<
  PhotoSort,
  { order: string; key: (r: Record<string, unknown>) => string | number | null; after(c: PhotoCursor): [string, unknown[]] }
> = {
  imported: {
    order: 'imported_at DESC, id DESC',
    key: (r) => r.imported_at as number,
    after: (c) => ['(imported_at < ? OR (imported_at = ? AND id < ?))', [c.v, c.v, c.id]],
  },
  filename: {
    order: 'filename ASC, id ASC',
    key: (r) => r.filename as string,
    after: (c) => ['(filename > ? OR (filename = ? AND id > ?))', [c.v, c.v, c.id]],
  },
  // By the known end of the estimate, closed before open on the same day, undated and conflicting
  // last (DATE_KEY_SQL in schema.ts; documented in the README).
  date: {
    order: `${DATE_KEY_SQL} IS NULL, ${DATE_KEY_SQL} ASC, id ASC`,
    key: (r) => r.date_key as number | null,
    after: (c) =>
      c.v === null
        ? [`(${DATE_KEY_SQL} IS NULL AND id > ?)`, [c.id]]
        : [`(${DATE_KEY_SQL} > ? OR (${DATE_KEY_SQL} = ? AND id > ?) OR ${DATE_KEY_SQL} IS NULL)`, [c.v, c.v, c.id]],
  },
};

/** The year filter's conditions: [SQL, args] for a range of whole years. */
function yearConditions(mode: YearMode, from: number | undefined, to: number | undefined): [string[], unknown[]] {
  if (from === undefined && to === undefined) return [[], []];
  const where = ["estimate_status IN ('estimated', 'needs_review')"];
  const args: unknown[] = [];
  const start = from !== undefined ? from * 10000 + 101 : undefined;
  const end = to !== undefined ? to * 10000 + 1231 : undefined;
  if (mode === 'within') {
    // Inside the years: a known end on each side that is limited ("not after 2026" is in no range of the past).
    if (start !== undefined) where.push('estimate_earliest IS NOT NULL AND estimate_earliest >= ?');
    if (end !== undefined) where.push('estimate_latest IS NOT NULL AND estimate_latest <= ?');
  } else {
    // Could be from those years: an open end reaches any year on its side.
    if (start !== undefined) where.push('(estimate_latest IS NULL OR estimate_latest >= ?)');
    if (end !== undefined) where.push('(estimate_earliest IS NULL OR estimate_earliest <= ?)');
  }
  if (start !== undefined) args.push(start);
  if (end !== undefined) args.push(end);
  return [where, args];
}

export function toPhotoSummary(r: Record<string, any>): PhotoSummary {
  return {
    id: r.id,
    filename: r.filename,
    path: r.path,
    format: r.format,
    displayWidth: r.display_width,
    displayHeight: r.display_height,
    thumbnailVersion: r.thumbnail ? String(r.sha256).slice(0, 12) : null,
    metadataStatus: r.metadata_status,
    metadataError: r.metadata_error,
    metadataJob: r.metadata_job ? (JSON.parse(r.metadata_job) as PhotoSummary['metadataJob']) : null,
    missing: !!r.missing,
    camera: r.camera,
    exifDate: r.exif_date,
    estimateStatus: r.estimate_status,
    estimateEarliest: r.estimate_earliest,
    estimateLatest: r.estimate_latest,
    estimateLabel: r.estimate_label ?? null,
    importedAt: r.imported_at,
  };
}

export class PhotoRepository {
  private readonly s: Record<string, Database.Statement>;
  /** The ORDER BY of the "date" sort (for tests that check it walks its index). */
  readonly dateOrder = SORTS.date.order;

  constructor(private readonly sqlite: Database.Database) {
    const p = (sql: string) => sqlite.prepare(sql);
    this.s = {
      insert: p(
        `INSERT INTO photos (sha256, path, filename, size, mtime_ms, scan_policy, imported_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (sha256) DO NOTHING RETURNING id`,
      ),
      byId: p('SELECT * FROM photos WHERE id = ?'),
      summaryById: p(`SELECT ${SUMMARY_COLUMNS} FROM photos WHERE id = ?`),
      applyMetadata: p(
        `UPDATE photos SET format = ?, width = ?, height = ?, orientation = ?, display_width = ?, display_height = ?,
                thumbnail = ?, phash = ?, exif = ?, camera = ?, exif_date = ?, is_scan = ?, scanner_reason = ?, scan_reason = ?,
                metadata_status = 'ready',
                metadata_error = ?, missing = 0, updated_at = ?
          WHERE id = ?`,
      ),
      setOcrText: p(`UPDATE photos SET ocr_text = ?, updated_at = ? WHERE id = ?`),
      setNotes: p(`UPDATE photos SET notes = ?, updated_at = ? WHERE id = ?`),
      setScan: p(`UPDATE photos SET scan_override = ?, is_scan = ?, scan_reason = ?, updated_at = ? WHERE id = ?`),
      metadataFailed: p(
        `UPDATE photos SET metadata_status = 'failed', metadata_error = ?, missing = ?, updated_at = ? WHERE id = ?`,
      ),
      pendingAgain: p(
        `UPDATE photos SET metadata_status = 'pending', updated_at = ? WHERE id = ? AND metadata_status = 'failed'`,
      ),
    };
  }

  /** In tx. Inserts new photos; a file whose content is already in the library is a duplicate (null). */
  insert(p: NewPhoto, now: number): number | null {
    const row = this.s.insert.get(p.sha256, p.path, p.filename, p.size, p.mtimeMs, p.scanPolicy ?? null, now, now) as
      { id: number } | undefined;
    return row?.id ?? null;
  }

  get(id: number): PhotoRow | undefined {
    return this.s.byId.get(id) as PhotoRow | undefined;
  }

  summary(id: number): PhotoSummary | undefined {
    const r = this.s.summaryById.get(id) as Record<string, unknown> | undefined;
    return r ? toPhotoSummary(r) : undefined;
  }

  list(q: {
    sort: PhotoSort;
    filter: PhotoFilter;
    search?: string;
    yearFrom?: number;
    yearTo?: number;
    yearMode?: YearMode;
    cursor?: PhotoCursor;
    ids?: number[];
    limit: number;
  }) {
    const [yearWhere, yearArgs] = yearConditions(q.yearMode ?? 'within', q.yearFrom, q.yearTo);
    const where: string[] = [FILTERS[q.filter], ...yearWhere];
    const args: unknown[] = [...yearArgs];
    const match = q.search ? ftsQuery(q.search) : null;
    if (match) {
      where.push('id IN (SELECT rowid FROM photos_fts WHERE photos_fts MATCH ?)');
      args.push(match);
    }
    if (q.ids?.length) {
      where.push(`id IN (${q.ids.map(() => '?').join(',')})`);
      args.push(...q.ids);
    }
    const sort = SORTS[q.sort];
    const total = this.sqlite
      .prepare(`SELECT count(*) FROM photos WHERE ${where.join(' AND ')}`)
      .pluck()
      .get(...args) as number;
    const pageWhere = [...where];
    const pageArgs = [...args];
    if (q.cursor) {
      const [cond, condArgs] = sort.after(q.cursor);
      pageWhere.push(cond);
      pageArgs.push(...condArgs);
    }
    const rows = this.sqlite
      .prepare(`SELECT ${SUMMARY_COLUMNS} FROM photos WHERE ${pageWhere.join(' AND ')} ORDER BY ${sort.order} LIMIT ?`)
      .all(...pageArgs, q.limit) as Record<string, unknown>[];
    const last = rows[rows.length - 1];
    return {
      items: rows.map(toPhotoSummary),
      total,
      nextCursor: rows.length === q.limit && last ? { v: sort.key(last), id: last.id as number } : null,
    };
  }

  /** In tx. Stores what the metadata job found, and whether the photo is taken for a scan and why. */
  applyMetadata(id: number, m: PhotoMetadata, thumbnailRel: string, scan: { isScan: boolean; reason: string }): void {
    const camera = cameraName(m.exif.make, m.exif.model);
    const exifDate = m.exif.dateTimeOriginal ?? m.exif.createDate ?? m.exif.xmpDateTimeOriginal ?? null;
    this.s.applyMetadata.run(
      m.format,
      m.width,
      m.height,
      m.orientation,
      m.displayWidth,
      m.displayHeight,
      thumbnailRel,
      m.phash,
      JSON.stringify(m.exif),
      camera,
      exifDate,
      scan.isScan ? 1 : 0,
      m.scanner.isScan ? m.scanner.reason : null,
      scan.reason,
      m.exifError,
      Date.now(),
      id,
    );
  }

  /** In tx. The searchable OCR text of the latest OCR run. */
  setOcrText(id: number, text: string): void {
    this.s.setOcrText.run(text, Date.now(), id);
  }

  setNotes(id: number, notes: string): boolean {
    return this.s.setNotes.run(notes, Date.now(), id).changes === 1;
  }

  /** In tx. The archivist's word on whether this photo is a scan, and what it decides. */
  setScan(id: number, override: ScanOverride | null, decision: { isScan: boolean; reason: string }): void {
    this.s.setScan.run(override, decision.isScan ? 1 : 0, decision.reason, Date.now(), id);
  }

  /** In tx. The metadata job has failed for good. */
  markMetadataFailed(id: number, message: string, missing: boolean): void {
    this.s.metadataFailed.run(message, missing ? 1 : 0, Date.now(), id);
  }

  /** Filenames by id (jobs name the photo they are about); ids not in the library are left out. */
  names(ids: readonly number[]): Map<number, string> {
    const out = new Map<number, string>();
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      const rows = this.sqlite
        .prepare(`SELECT id, filename FROM photos WHERE id IN (${chunk.map(() => '?').join(',')})`)
        .all(...chunk) as { id: number; filename: string }[];
      for (const r of rows) out.set(r.id, r.filename);
    }
    return out;
  }

  /** A rerun of a failed photo shows it as pending again. */
  markPendingAgain(id: number): void {
    this.s.pendingAgain.run(Date.now(), id);
  }
}

/** "Canon" + "Canon EOS 40D" → "Canon EOS 40D"; "NIKON CORPORATION" + "NIKON D70" → "NIKON D70": models often repeat the make. */
export function cameraName(make: string | null, model: string | null): string | null {
  if (!model) return make;
  if (!make) return model;
  const brand = make.split(/\s+/)[0].toLowerCase();
  return model.toLowerCase().startsWith(brand) ? model : `${make} ${model}`;
}
