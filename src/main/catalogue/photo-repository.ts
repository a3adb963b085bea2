/** SQL for photos: insert on import, keyset-paginated listing for the grid, metadata results. */
import type Database from 'better-sqlite3';
import { ocrReadingSchema, type OcrReading, type PhotoSummary, type ScanOverride, type ScanPolicy } from '../../shared/contract';
import type { PhotoMetadata } from '../../shared/jobs/outputs/photo-metadata';
import { PermanentJobError } from '../../shared/jobs/errors';
import { PhotoListing, SUMMARY_COLUMNS, toPhotoSummary, type PhotoQuery } from './photo-listing';

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
  /** Pages or frames in the file when more than one (the first is what Circa reads), else null. */
  page_count: number | null;
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
  ocr_reading: string | null;
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

export { ftsQuery, toPhotoSummary, type PhotoCursor, type PhotoFilter, type PhotoSort, type YearMode } from './photo-listing';

/** The stored OCR reading, or null when there is none or it cannot be read back (shown as absent). */
export function parseOcrReading(json: string | null): OcrReading | null {
  if (!json) return null;
  try {
    const parsed = ocrReadingSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export class PhotoRepository {
  private readonly s: Record<string, Database.Statement>;

  readonly listing: PhotoListing;

  constructor(private readonly sqlite: Database.Database) {
    this.listing = new PhotoListing(sqlite);
    const p = (sql: string) => sqlite.prepare(sql);
    this.s = {
      insert: p(
        `INSERT INTO photos (sha256, path, filename, size, mtime_ms, scan_policy, imported_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (sha256) DO NOTHING RETURNING id`,
      ),
      byId: p('SELECT * FROM photos WHERE id = ?'),
      pathBySha: p('SELECT path FROM photos WHERE sha256 = ?').pluck(),
      summaryById: p(`SELECT ${SUMMARY_COLUMNS} FROM photos WHERE photos.id = ?`),
      applyMetadata: p(
        `UPDATE photos SET format = ?, width = ?, height = ?, orientation = ?, display_width = ?, display_height = ?, page_count = ?,
                thumbnail = ?, phash = ?, exif = ?, camera = ?, exif_date = ?, is_scan = ?, scanner_reason = ?, scan_reason = ?,
                metadata_status = 'ready',
                metadata_error = ?, missing = 0, updated_at = ?
          WHERE id = ?`,
      ),
      setOcrReading: p(`UPDATE photos SET ocr_text = ?, ocr_reading = ?, updated_at = ? WHERE id = ?`),
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

  /** Where the photo with this content is (null: no such photo). */
  pathOfContent(sha256: string): string | null {
    return (this.s.pathBySha.get(sha256) as string | undefined) ?? null;
  }

  get(id: number): PhotoRow | undefined {
    return this.s.byId.get(id) as PhotoRow | undefined;
  }

  /** The photo a job is about; a photo removed since it was queued is a failure no retry can fix. */
  forJob(id: number): PhotoRow {
    const photo = this.get(id);
    if (!photo) throw new PermanentJobError(`Photo ${id} is no longer in the library`);
    return photo;
  }

  summary(id: number): PhotoSummary | undefined {
    const r = this.s.summaryById.get(id) as Record<string, unknown> | undefined;
    return r ? toPhotoSummary(r) : undefined;
  }

  /** A page of the grid and how many match (see photo-listing.ts). */
  list(q: PhotoQuery) {
    return this.listing.list(q);
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
      m.pages ?? null,
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

  /** In tx. The latest OCR reading: its text for search, its lines with confidence and boxes for the photo screen. */
  setOcrReading(id: number, reading: OcrReading): void {
    this.s.setOcrReading.run(reading.text, JSON.stringify(reading), Date.now(), id);
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
