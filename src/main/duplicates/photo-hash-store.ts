/**
 * The `photo_hashes` table: each photo's duplicate hashes by the current method, and whether the
 * duplicate scan has compared it yet. New hashes (a metadata run, a re-hash) make the photo
 * unscanned again and drop its unreviewed pairs, which were found with the old ones; decisions
 * the archivist made ("not the same") stay.
 *
 * Reads for the scan are bounded pages in photo id order, handed to the worker as they are stored;
 * a worker that kept a copy from an earlier scan is handed the rows stamped since (`changedSince`).
 */
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { HASHES_PER_PHOTO, PHOTO_HASH_METHOD, hashesToBlob } from '../../shared/duplicates/hash-set';
import type { ChangedHashes, HashPage } from '../../shared/jobs/outputs/duplicate-scan';

const BLOB_BYTES = 8 * HASHES_PER_PHOTO;
const USABLE = `method = ${PHOTO_HASH_METHOD} AND hashes IS NOT NULL`;
const UNSCANNED = `(scanned_distance IS NULL OR scanned_distance < @d)`;

/** When this process last stamped new hashes into each library (see scanStartTime). */
const lastStamped = new WeakMap<Database.Database, number>();
/** A name for each opened library, for the workers' copies of its hashes (a library opened again, or restored, is copied anew). */
const copyNames = new WeakMap<Database.Database, string>();

export class PhotoHashStore {
  private readonly s: Record<string, Database.Statement>;

  /** `onChanged`: a photo got new hashes (the scan scheduler wants to know). */
  constructor(
    private readonly sqlite: Database.Database,
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
      // Through photo_hashes_older_idx (its condition stated the same way; CROSS JOIN keeps it the
      // outer loop): only rows by an older method are read, never the whole library. Every photo
      // has a row: a metadata run writes one, and the duplicates migration gave each photo from
      // before it one by method 1.
      needingRehash: p(
        `SELECT p.id, p.thumbnail FROM photo_hashes h INDEXED BY photo_hashes_older_idx CROSS JOIN photos p ON p.id = h.photo_id
          WHERE h.method < ${PHOTO_HASH_METHOD} AND h.photo_id > ? AND p.metadata_status = 'ready' AND p.thumbnail IS NOT NULL
          ORDER BY h.photo_id LIMIT ?`,
      ),
      // One page of the library for the scan's worker: raw rows, no objects per row.
      page: p(
        `SELECT photo_id, hashes, coalesce(scanned_distance, -1) < @d FROM photo_hashes
          WHERE photo_id > @after AND ${USABLE} ORDER BY photo_id LIMIT @limit`,
      ).raw(),
      // Not scanned yet at this distance: never (NULL, through the index), or at a smaller one.
      neverScannedIds: p(
        `SELECT photo_id FROM photo_hashes WHERE scanned_distance IS NULL AND photo_id > @after AND ${USABLE}
          ORDER BY photo_id LIMIT @limit`,
      ).pluck(),
      // Through the scan index too: left to itself SQLite walked the whole table in id order (8 ms
      // of main's CPU for 100,000 photos in every compare step), though such rows are usually
      // none. When they are many (the distance was raised), each step sorts them: slower, rare.
      scannedCloserIds: p(
        `SELECT photo_id FROM photo_hashes INDEXED BY photo_hashes_scan_idx
          WHERE scanned_distance < @d AND photo_id > @after AND ${USABLE}
          ORDER BY photo_id LIMIT @limit`,
      ).pluck(),
      // Every row stamped since a time: a full read of the table (no index on the stamp; with the
      // count below, a sync's whole read of 100,000 rows took at most 36 ms in bench -- duplicates
      // on a busy host). A row no longer usable goes too: the worker drops it.
      changedSince: p(
        `SELECT photo_id, hashes, ${USABLE} AND length(hashes) = ${BLOB_BYTES} FROM photo_hashes
          WHERE updated_at >= @since ORDER BY photo_id`,
      ).raw(),
      countUsable: p(`SELECT count(*) FROM photo_hashes WHERE ${USABLE} AND length(hashes) = ${BLOB_BYTES}`).pluck(),
      usableIds: p(
        `SELECT photo_id FROM photo_hashes WHERE ${USABLE} AND length(hashes) = ${BLOB_BYTES} ORDER BY photo_id`,
      ).pluck(),
      allUnscanned: p(
        `SELECT photo_id FROM photo_hashes WHERE scanned_distance IS NULL AND ${USABLE}
         UNION ALL SELECT photo_id FROM photo_hashes WHERE scanned_distance < @d AND ${USABLE}`,
      ).pluck(),
      countNeverScanned: p(`SELECT count(*) FROM photo_hashes WHERE scanned_distance IS NULL AND ${USABLE}`).pluck(),
      countScannedCloser: p(`SELECT count(*) FROM photo_hashes WHERE scanned_distance < @d AND ${USABLE}`).pluck(),
      markScanned: p(
        `UPDATE photo_hashes SET scanned_distance = @d
          WHERE photo_id BETWEEN @from AND @to AND ${USABLE} AND ${UNSCANNED} AND updated_at < @startedAt`,
      ),
    };
  }

  /**
   * In tx. A metadata run's hashes (null: too uniform to compare). True when they differ from the
   * stored ones: the photo is compared again, and its unreviewed pairs are dropped.
   */
  record(photoId: number, hashes: readonly string[] | null): boolean {
    const now = Date.now();
    const changed = this.s.upsert.run({ id: photoId, method: PHOTO_HASH_METHOD, hashes: blobOf(hashes), now }).changes > 0;
    if (changed) this.afterChange(photoId, now);
    return changed;
  }

  /** In tx. A re-hash by the current method, unless the photo got such hashes meanwhile. */
  recordRehash(photoId: number, full: string, hashes: readonly string[] | null): boolean {
    const now = Date.now();
    const changed = this.s.upsertOlder.run({ id: photoId, method: PHOTO_HASH_METHOD, hashes: blobOf(hashes), now }).changes > 0;
    if (changed) {
      this.s.setPhash.run(full, photoId);
      this.afterChange(photoId, now);
    }
    return changed;
  }

  private afterChange(photoId: number, now: number): void {
    lastStamped.set(this.sqlite, Math.max(now, lastStamped.get(this.sqlite) ?? 0));
    this.s.dropProposals.run({ id: photoId });
    this.onChanged(photoId);
  }

  /**
   * The time a scan's loading starts: hashes stamped before it are the ones it loads, and hashes
   * stamped at or after it are left for the next scan. Stamps are milliseconds, so hashes this
   * process wrote in the current millisecond (a re-hash step just before) would read as written
   * after the start: it resolves once the clock is past them (a millisecond or two, once per
   * scan), without holding main's event loop. The caller reads its page in the same turn. Hashes
   * another process writes meanwhile still read as later, which only leaves them for the next scan.
   */
  async scanStartTime(): Promise<number> {
    while (Date.now() <= (lastStamped.get(this.sqlite) ?? 0)) await new Promise((resolve) => setTimeout(resolve, 1));
    return Date.now();
  }

  /** Photos with a thumbnail whose hashes are by an older method, after `afterId`. */
  needingRehash(afterId: number, limit: number): { id: number; thumbnail: string }[] {
    return this.s.needingRehash.all(afterId, limit) as { id: number; thumbnail: string }[];
  }

  /** How SQLite finds them (a test checks that it reads only rows by an older method). */
  rehashPlan(): string[] {
    return this.planOf(this.s.needingRehash, [0, 1]);
  }

  /** How SQLite finds the photos a compare step searches with (a test checks it reads them through the scan index). */
  unscannedPlan(): string[] {
    const args = { d: 6, after: 0, limit: 1 };
    return [...this.planOf(this.s.neverScannedIds, [args]), ...this.planOf(this.s.scannedCloserIds, [args])];
  }

  private planOf(statement: Database.Statement, args: unknown[]): string[] {
    return (this.sqlite.prepare(`EXPLAIN QUERY PLAN ${statement.source}`).all(...args) as { detail: string }[]).map(
      (r) => r.detail,
    );
  }

  /**
   * Up to `limit` photos with usable hashes after `after`, for the scan's worker: their ids, hash
   * BLOBs end to end, and whether each is not scanned yet at distance `d`.
   */
  page(d: number, after: number, limit: number): { page: HashPage; lastId: number | null } {
    const rows = this.s.page.all({ d, after, limit }) as [number, Buffer, number][];
    const ids = new Int32Array(rows.length);
    const unscanned = new Uint8Array(rows.length);
    const blobs = new Uint8Array(rows.length * BLOB_BYTES);
    let n = 0;
    for (const [id, blob, fresh] of rows) {
      // A damaged row is left out rather than compared as zeros.
      if (blob.byteLength !== BLOB_BYTES) continue;
      ids[n] = id;
      unscanned[n] = fresh;
      blobs.set(blob, n++ * BLOB_BYTES);
    }
    const whole = n === rows.length;
    const page = whole
      ? { ids, unscanned, blobs }
      : { ids: ids.slice(0, n), unscanned: unscanned.slice(0, n), blobs: blobs.slice(0, n * BLOB_BYTES) };
    return { page, lastId: rows.length ? rows[rows.length - 1][0] : null };
  }

  /** The name workers know this library's copy by: one per opening of the database. */
  copyName(): string {
    let name = copyNames.get(this.sqlite);
    if (!name) copyNames.set(this.sqlite, (name = randomUUID()));
    return name;
  }

  /**
   * For a worker's copy as of `since`: the rows stamped at or after it (each usable or not, with
   * its hashes), how many usable photos the library holds, and every photo not scanned yet at
   * distance `d`. The caller reads it in one turn, right after `scanStartTime`.
   */
  changedSince(since: number, d: number): { changed: ChangedHashes; count: number; unscanned: Int32Array } {
    const rows = this.s.changedSince.all({ since }) as [number, Buffer | null, number][];
    const ids = new Int32Array(rows.length);
    const usable = new Uint8Array(rows.length);
    const blobs = new Uint8Array(rows.length * BLOB_BYTES);
    rows.forEach(([id, blob, ok], i) => {
      ids[i] = id;
      usable[i] = ok ? 1 : 0;
      if (ok && blob) blobs.set(blob, i * BLOB_BYTES);
    });
    const count = this.s.countUsable.get() as number;
    const unscanned = Int32Array.from(this.s.allUnscanned.all({ d }) as number[]);
    return { changed: { ids, blobs, usable }, count, unscanned };
  }

  /** Every photo with usable hashes, ascending (a worker's copy lets go of the others). */
  usableIds(): Int32Array {
    return Int32Array.from(this.s.usableIds.all() as number[]);
  }

  /** The ids of up to `limit` photos not scanned yet at distance `d`, after `after`, in order. */
  unscannedIds(d: number, after: number, limit: number): number[] {
    const args = { d, after, limit };
    const ids = [...(this.s.neverScannedIds.all(args) as number[]), ...(this.s.scannedCloserIds.all(args) as number[])];
    return ids.sort((a, b) => a - b).slice(0, limit);
  }

  /** Whether a scan has work: photos to re-hash, or photos not scanned yet at distance `d`. */
  hasWork(d: number): boolean {
    return this.needingRehash(0, 1).length > 0 || this.countUnscanned(d) > 0;
  }

  countUnscanned(d: number): number {
    return (this.s.countNeverScanned.get() as number) + (this.s.countScannedCloser.get({ d }) as number);
  }

  /** In tx. The chunk's photos have been compared with every scanned photo, unless their hashes changed since it started. */
  markScanned(fromId: number, toId: number, d: number, startedAt: number): number {
    return this.s.markScanned.run({ from: fromId, to: toId, d, startedAt }).changes;
  }
}

function blobOf(hashes: readonly string[] | null): Buffer | null {
  return hashes ? Buffer.from(hashesToBlob(hashes)) : null;
}
