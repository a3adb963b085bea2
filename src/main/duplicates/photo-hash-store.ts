/**
 * The `photo_hashes` table: each photo's duplicate hashes by the current method, and whether the
 * duplicate scan has compared it yet. New hashes (a metadata run, a re-hash) make the photo
 * unscanned again and drop its unreviewed pairs, which were found with the old ones; decisions
 * the archivist made ("not the same") stay.
 *
 * Reads for the scan return the hashes packed for the worker (one typed array per block), in
 * photo id order, a bounded number at a time.
 */
import type Database from 'better-sqlite3';
import { HASHES_PER_PHOTO, PHOTO_HASH_METHOD, blobInto, hashesToBlob } from '../../shared/duplicates/hash-set';
import type { PackedPhotos } from '../../shared/jobs/outputs/duplicate-scan';

const WORDS = 2 * HASHES_PER_PHOTO;
const USABLE = `method = ${PHOTO_HASH_METHOD} AND hashes IS NOT NULL`;
const UNSCANNED = `(scanned_distance IS NULL OR scanned_distance < @d)`;

interface HashRow {
  id: number;
  hashes: Buffer;
}

export class PhotoHashStore {
  private readonly s: Record<string, Database.Statement>;

  /** `onChanged`: a photo got new hashes (the scan scheduler wants to know). */
  constructor(
    sqlite: Database.Database,
    private readonly onChanged: (photoId: number) => void = () => {},
  ) {
    const p = (sql: string) => sqlite.prepare(sql);
    this.s = {
      upsert: p(
        `INSERT INTO photo_hashes (photo_id, method, hashes, scanned_distance, updated_at) VALUES (@id, @method, @hashes, NULL, @now)
         ON CONFLICT (photo_id) DO UPDATE SET method = excluded.method, hashes = excluded.hashes, scanned_distance = NULL,
                updated_at = excluded.updated_at
          WHERE photo_hashes.method IS NOT excluded.method OR photo_hashes.hashes IS NOT excluded.hashes`,
      ),
      // A re-hash never replaces hashes a metadata run wrote by the current method meanwhile.
      upsertOlder: p(
        `INSERT INTO photo_hashes (photo_id, method, hashes, scanned_distance, updated_at)
         SELECT @id, @method, @hashes, NULL, @now WHERE EXISTS (SELECT 1 FROM photos WHERE id = @id)
         ON CONFLICT (photo_id) DO UPDATE SET method = excluded.method, hashes = excluded.hashes, scanned_distance = NULL,
                updated_at = excluded.updated_at
          WHERE photo_hashes.method < excluded.method`,
      ),
      setPhash: p(`UPDATE photos SET phash = ? WHERE id = ?`),
      dropProposals: p(`DELETE FROM duplicate_pairs WHERE status = 'proposed' AND (photo_lo = @id OR photo_hi = @id)`),
      needingRehash: p(
        `SELECT p.id, p.thumbnail FROM photos p
          WHERE p.id > ? AND p.metadata_status = 'ready' AND p.thumbnail IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM photo_hashes h WHERE h.photo_id = p.id AND h.method >= ${PHOTO_HASH_METHOD})
          ORDER BY p.id LIMIT ?`,
      ),
      // Not yet scanned: never (NULL, through the index) or at a smaller distance than this scan's.
      neverScanned: p(
        `SELECT photo_id AS id, hashes FROM photo_hashes
          WHERE scanned_distance IS NULL AND photo_id > @after AND photo_id <= @until AND ${USABLE}
          ORDER BY photo_id LIMIT @limit`,
      ),
      scannedCloser: p(
        `SELECT photo_id AS id, hashes FROM photo_hashes
          WHERE scanned_distance < @d AND photo_id > @after AND photo_id <= @until AND ${USABLE}
          ORDER BY photo_id LIMIT @limit`,
      ),
      // Walks the primary key: nearly every row of a scanned library qualifies.
      scanned: p(
        `SELECT photo_id AS id, hashes FROM photo_hashes NOT INDEXED
          WHERE photo_id > @after AND scanned_distance >= @d AND ${USABLE}
          ORDER BY photo_id LIMIT @limit`,
      ),
      countNeverScanned: p(`SELECT count(*) FROM photo_hashes WHERE scanned_distance IS NULL AND ${USABLE}`).pluck(),
      countScannedCloser: p(`SELECT count(*) FROM photo_hashes WHERE scanned_distance < @d AND ${USABLE}`).pluck(),
      markScanned: p(
        `UPDATE photo_hashes SET scanned_distance = @d
          WHERE photo_id BETWEEN @from AND @to AND ${USABLE} AND ${UNSCANNED} AND updated_at < @startedAt`,
      ),
      updatedAt: p(`SELECT updated_at FROM photo_hashes WHERE photo_id = ?`).pluck(),
    };
  }

  /**
   * In tx. A metadata run's hashes (null: too uniform to compare). True when they differ from the
   * stored ones: the photo is compared again, and its unreviewed pairs are dropped.
   */
  record(photoId: number, hashes: readonly string[] | null): boolean {
    const changed =
      this.s.upsert.run({ id: photoId, method: PHOTO_HASH_METHOD, hashes: blobOf(hashes), now: Date.now() }).changes > 0;
    if (changed) this.afterChange(photoId);
    return changed;
  }

  /** In tx. A re-hash by the current method, unless the photo got such hashes meanwhile. */
  recordRehash(photoId: number, full: string, hashes: readonly string[] | null): boolean {
    const changed =
      this.s.upsertOlder.run({ id: photoId, method: PHOTO_HASH_METHOD, hashes: blobOf(hashes), now: Date.now() }).changes > 0;
    if (changed) {
      this.s.setPhash.run(full, photoId);
      this.afterChange(photoId);
    }
    return changed;
  }

  private afterChange(photoId: number): void {
    this.s.dropProposals.run({ id: photoId });
    this.onChanged(photoId);
  }

  /** Photos with a thumbnail whose hashes are missing or by an older method, after `afterId`. */
  needingRehash(afterId: number, limit: number): { id: number; thumbnail: string }[] {
    return this.s.needingRehash.all(afterId, limit) as { id: number; thumbnail: string }[];
  }

  /** Up to `limit` photos not yet scanned at distance `d`, with ids in (after, until]. */
  unscanned(d: number, after: number, until: number, limit: number): PackedPhotos {
    const args = { d, after, until, limit };
    const rows = [...(this.s.neverScanned.all(args) as HashRow[]), ...(this.s.scannedCloser.all(args) as HashRow[])];
    rows.sort((a, b) => a.id - b.id);
    return pack(rows.slice(0, limit));
  }

  /** Up to `limit` photos scanned at distance `d` or more, after `after`. */
  scanned(d: number, after: number, limit: number): PackedPhotos {
    return pack(this.s.scanned.all({ d, after, limit }) as HashRow[]);
  }

  countUnscanned(d: number): number {
    return (this.s.countNeverScanned.get() as number) + (this.s.countScannedCloser.get({ d }) as number);
  }

  /** In tx. The chunk's photos have been compared with every scanned photo, unless their hashes changed since it started. */
  markScanned(fromId: number, toId: number, d: number, startedAt: number): number {
    return this.s.markScanned.run({ from: fromId, to: toId, d, startedAt }).changes;
  }

  /** When the photo's hashes were last written (undefined: it has none, or is gone). */
  updatedAt(photoId: number): number | undefined {
    return this.s.updatedAt.get(photoId) as number | undefined;
  }
}

function blobOf(hashes: readonly string[] | null): Buffer | null {
  return hashes ? Buffer.from(hashesToBlob(hashes)) : null;
}

function pack(rows: HashRow[]): PackedPhotos {
  const ids = new Int32Array(rows.length);
  const words = new Uint32Array(rows.length * WORDS);
  let n = 0;
  for (const r of rows) {
    // A damaged row is left out rather than failing the scan.
    if (!blobInto(r.hashes, words, n * WORDS)) continue;
    ids[n++] = r.id;
  }
  return n === rows.length ? { ids, words } : { ids: ids.slice(0, n), words: words.slice(0, n * WORDS) };
}
