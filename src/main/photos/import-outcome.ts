/**
 * What became of the photos one import added: how many are still being read and which could not
 * be read at all (their metadata job failed: a broken or truncated file, something not an image).
 * An import's summary counts those as failed too, so "Failed 0" is never said of broken files.
 *
 * Only the importer adds photos and only one import runs at a time, so the photos one import
 * added are exactly the ids between the first and the last it added.
 */
import type Database from 'better-sqlite3';

export interface AddedRange {
  first: number;
  last: number;
}

export interface ImportOutcome {
  reading: number;
  unreadable: number;
  /** The first `limit` unreadable photos, with why. */
  errors: { path: string; message: string }[];
}

export class ImportOutcomes {
  private readonly counts: Database.Statement;
  private readonly failures: Database.Statement;

  constructor(sqlite: Database.Database) {
    // Counted in the metadata-status index (its entries end with the id): asked whenever the
    // library changes during an import, a scan of the import's rows (thumbnails and all) took
    // ~8 ms at 20,000 photos and grew with every photo, against ~0.3 ms here.
    this.counts = sqlite.prepare(
      `SELECT (SELECT count(*) FROM photos WHERE metadata_status = 'pending' AND id BETWEEN @first AND @last) AS reading,
              (SELECT count(*) FROM photos WHERE metadata_status = 'failed' AND id BETWEEN @first AND @last) AS unreadable`,
    );
    this.failures = sqlite.prepare(
      `SELECT path, metadata_error AS message FROM photos
        WHERE id BETWEEN ? AND ? AND metadata_status = 'failed' ORDER BY id LIMIT ?`,
    );
  }

  of(range: AddedRange | null, limit: number): ImportOutcome {
    if (!range) return { reading: 0, unreadable: 0, errors: [] };
    const { reading, unreadable } = this.counts.get({ first: range.first, last: range.last }) as {
      reading: number;
      unreadable: number;
    };
    const rows = unreadable && limit > 0 ? (this.failures.all(range.first, range.last, limit) as ImportOutcome['errors']) : [];
    return {
      reading,
      unreadable,
      errors: rows.map((r) => ({ path: r.path, message: r.message || 'could not be read' })),
    };
  }
}
