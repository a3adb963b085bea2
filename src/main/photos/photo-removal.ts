/**
 * Removing photos from the library, never their files. Each removed photo is written to the audit
 * ledger in full (its row, its evidence with every review, its undo history) in the same
 * transaction that deletes it, so nothing the archivist decided is lost; its queued jobs are
 * cancelled and running ones asked to stop. For a while afterwards the removal can be undone: the
 * photos come back from the ledger exactly as they were.
 */
import type Database from 'better-sqlite3';
import { CallFailure } from '../../shared/result';
import { PHOTO_HASH_METHOD } from '../../shared/duplicates/hash-set';
import type { AuditLedger } from '../audit/ledger';
import type { LibraryDb } from '../db/open';
import type { JobService } from '../jobs/service';

/** How long a removal can be undone. */
export const REMOVAL_UNDO_MS = 30 * 60_000;

type Row = Record<string, unknown>;

interface RemovedPhoto {
  photo: Row;
  evidence: Row[];
  actionChanges: Row[];
}

export interface Removal {
  removed: number;
  /** The ledger entries that hold the removed photos: what undo restores. */
  undo: { first: number; last: number } | null;
  undoUntil: number | null;
}

export class PhotoRemoval {
  private readonly s: Record<string, Database.Statement>;
  /** Insertable columns per table (generated and hidden columns are left out). */
  private readonly columns = new Map<string, string[]>();
  /** Hashes of photos this process removed, with when: their zoom views stay while undo can bring them back. */
  private readonly removedAt = new Map<string, number>();

  constructor(
    private readonly db: LibraryDb,
    private readonly jobs: JobService,
    private readonly ledger: AuditLedger,
    private readonly onPhotosChanged: (ids: number[]) => void,
  ) {
    const p = (sql: string) => db.sqlite.prepare(sql);
    this.s = {
      photo: p('SELECT * FROM photos WHERE id = ?'),
      evidence: p('SELECT * FROM evidence WHERE photo_id = ? ORDER BY id'),
      actionChanges: p('SELECT * FROM user_action_changes WHERE photo_id = ? ORDER BY id'),
      activeJobs: p(`SELECT id FROM background_jobs WHERE subject = ? AND status IN ('queued', 'running')`).pluck(),
      remove: p('DELETE FROM photos WHERE id = ?'),
      lastLedgerId: p('SELECT coalesce(max(id), 0) FROM audit_events').pluck(),
      removals: p(
        `SELECT id, at, photo_id, data FROM audit_events WHERE id BETWEEN ? AND ? AND event = 'photo_removed' ORDER BY id`,
      ),
      exists: p('SELECT 1 FROM photos WHERE id = ? OR sha256 = ?').pluck(),
      withHash: p('SELECT 1 FROM photos WHERE sha256 = ?').pluck(),
      actionExists: p('SELECT 1 FROM user_actions WHERE id = ?').pluck(),
      hashAgain: p(
        `INSERT INTO photo_hashes (photo_id, method, hashes, scanned_distance, updated_at) VALUES (?, ${PHOTO_HASH_METHOD - 1}, NULL, NULL, ?)
         ON CONFLICT (photo_id) DO NOTHING`,
      ),
    };
  }

  remove(ids: readonly number[]): Removal {
    const unique = [...new Set(ids)];
    // Their jobs first: a queued job is cancelled at once, a running one is asked to stop.
    for (const id of unique) {
      for (const jobId of this.s.activeJobs.all(`photo:${id}`) as number[]) this.jobs.cancel(jobId, 'user');
    }
    const removed: number[] = [];
    const removedHashes: string[] = [];
    const undo = this.db.immediate(() => {
      const before = this.s.lastLedgerId.get() as number;
      const now = Date.now();
      for (const id of unique) {
        const photo = this.s.photo.get(id) as Row | undefined;
        if (!photo) continue;
        const kept: RemovedPhoto = {
          photo,
          evidence: this.s.evidence.all(id) as Row[],
          actionChanges: this.s.actionChanges.all(id) as Row[],
        };
        this.ledger.append([
          {
            event: 'photo_removed',
            actor: 'user',
            photoId: id,
            at: now,
            data: { path: photo.path, filename: photo.filename, sha256: photo.sha256, ...kept },
          },
        ]);
        this.s.remove.run(id);
        removed.push(id);
        removedHashes.push(photo.sha256 as string);
      }
      const last = this.s.lastLedgerId.get() as number;
      return removed.length ? { first: before + 1, last } : null;
    });
    // Only once committed: a removal rolled back leaves no trace here.
    const at = Date.now();
    for (const sha of removedHashes) this.removedAt.set(sha, at);
    if (removed.length) this.onPhotosChanged(removed);
    return { removed: removed.length, undo, undoUntil: undo ? Date.now() + REMOVAL_UNDO_MS : null };
  }

  /**
   * Whether the zoom view made for `sha256` is still wanted: a photo has that content, or one
   * removed with it can still be brought back (media/orphaned-views.ts sweeps the others).
   */
  holdsView(sha256: string, now = Date.now()): boolean {
    if (this.s.withHash.get(sha256)) return true;
    const at = this.removedAt.get(sha256);
    if (at !== undefined && now - at <= REMOVAL_UNDO_MS) return true;
    this.removedAt.delete(sha256);
    return false;
  }

  /**
   * Brings back the photos of one removal, as they were. A photo already back (undone before, or
   * the same file imported again since) is left as it is. Their metadata is read again unless it
   * had been read: a job cancelled by the removal is not lost.
   */
  undo(first: number, last: number): { restored: number; skipped: number } {
    const restored: number[] = [];
    let skipped = 0;
    this.db.immediate(() => {
      const rows = this.s.removals.all(first, last) as { id: number; at: number; photo_id: number; data: string }[];
      if (!rows.length) throw new CallFailure('not_found', 'There is no such removal to undo');
      if (rows[0].at < Date.now() - REMOVAL_UNDO_MS) {
        throw new CallFailure(
          'conflict',
          `This removal is more than ${REMOVAL_UNDO_MS / 60_000} minutes old and can no longer be undone`,
        );
      }
      const toRead: number[] = [];
      for (const r of rows) {
        const kept = JSON.parse(r.data) as RemovedPhoto;
        if (this.s.exists.get(r.photo_id, kept.photo.sha256)) {
          skipped++;
          continue;
        }
        this.insert('photos', kept.photo);
        for (const e of kept.evidence) this.insert('evidence', e);
        for (const c of kept.actionChanges) if (this.s.actionExists.get(c.action_id)) this.insert('user_action_changes', c);
        // Its duplicate hashes went with it: a row by an older method has the next scan hash it
        // again from its thumbnail (a photo whose metadata is read again gets them from that).
        this.s.hashAgain.run(r.photo_id, Date.now());
        if (kept.photo.metadata_status !== 'ready') {
          this.db.sqlite.prepare(`UPDATE photos SET metadata_status = 'pending' WHERE id = ?`).run(r.photo_id);
          toRead.push(r.photo_id);
        }
        this.ledger.append([{ event: 'photo_restored', actor: 'user', photoId: r.photo_id, data: { removal: r.id } }]);
        restored.push(r.photo_id);
      }
      this.jobs.enqueueMany(
        toRead.map((photoId) => ({ type: 'metadata', payload: { photoId } })),
        'user',
      );
    });
    if (restored.length) this.onPhotosChanged(restored);
    return { restored: restored.length, skipped };
  }

  private insert(table: string, row: Row): void {
    let cols = this.columns.get(table);
    if (!cols) {
      const info = this.db.sqlite.prepare(`SELECT name, hidden FROM pragma_table_xinfo(?)`).all(table) as {
        name: string;
        hidden: number;
      }[];
      cols = info.filter((c) => c.hidden === 0).map((c) => c.name);
      this.columns.set(table, cols);
    }
    const present = cols.filter((c) => c in row);
    this.db.sqlite
      .prepare(`INSERT INTO ${table} (${present.join(', ')}) VALUES (${present.map(() => '?').join(', ')})`)
      .run(...present.map((c) => row[c] as never));
  }
}
