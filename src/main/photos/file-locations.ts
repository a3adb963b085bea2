/**
 * Where each photo's file is. Circa references files in place, so a file can be moved or renamed
 * behind its back: a photo is marked missing when the library opens and its file is gone, or when
 * its folder is imported again and the file is no longer there; importing a file whose content
 * (SHA-256) is that of a missing photo relinks the photo to it, keeping everything known about it,
 * and so does a Locate… (the `locate` job, ./locate-job.ts) in a place the archivist points to.
 */
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { AuditLedger } from '../audit/ledger';
import type { LibraryDb } from '../db/open';
import { filesPresent } from './file-presence';
import type { NewPhoto } from '../catalogue/photo-repository';

const CHECK_PAGE = 500;
/** Photos marked missing (or found) per transaction when the library opens. */
const MARK_SLICE = 100;
/** Missing photos counted per folder in one read (a turn of the event loop between reads). */
const FOLDER_SLICE = 2_000;
/** Missing photos' sizes read at once for a Locate (a turn of the event loop between reads). */
const SIZE_SLICE = 5_000;
/**
 * A path's folder with its trailing separator, in SQL: rtrim strips the trailing characters that
 * are not separators (its second argument is the path with them removed).
 */
const FOLDER_OF_PATH =
  process.platform === 'win32' ? `rtrim(path, replace(replace(path, '/', ''), '\\', ''))` : `rtrim(path, replace(path, '/', ''))`;

/** What a Locate's worker needs to know of the missing photos. */
export interface MissingSizes {
  /** Their sizes (one per photo, in id order): a file of another size is not hashed. */
  sizes: number[];
  /** How many photos are missing. */
  missing: number;
}

export interface MissingFolders {
  /** The folders with the most missing photos first, up to the limit asked for. */
  items: { folder: string; count: number }[];
  folders: number;
  photos: number;
}

/** The bounds of every path under `folder`: those that start with it and a separator sort between them. */
export function pathRange(folder: string): [string, string] {
  const prefix = folder.endsWith(path.sep) ? folder : folder + path.sep;
  return [prefix, prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1)];
}

/** A file found with the content of a photo already in the library. */
export type FoundFile = Pick<NewPhoto, 'sha256' | 'path' | 'filename' | 'mtimeMs'>;

export interface Relinked {
  id: number;
  /** Its metadata had failed (the file was missing): it is read again. */
  reread: boolean;
}

interface LocatedRow {
  id: number;
  path: string;
  missing: number;
  metadata_status: string;
}

export class FileLocations {
  private readonly s: Record<string, Database.Statement>;

  constructor(
    private readonly db: LibraryDb,
    private readonly ledger: AuditLedger,
  ) {
    const p = (sql: string) => db.sqlite.prepare(sql);
    this.s = {
      bySha: p('SELECT id, path, missing, metadata_status FROM photos WHERE sha256 = ?'),
      relink: p(
        `UPDATE photos SET path = ?, filename = ?, mtime_ms = ?, missing = 0,
                metadata_status = CASE metadata_status WHEN 'failed' THEN 'pending' ELSE metadata_status END,
                updated_at = ? WHERE id = ?`,
      ),
      under: p('SELECT id, path FROM photos WHERE missing = 0 AND path >= ? AND path < ?'),
      page: p('SELECT id, path, missing FROM photos WHERE id > ? ORDER BY id LIMIT ?'),
      setMissing: p('UPDATE photos SET missing = ?, updated_at = ? WHERE id = ? AND missing <> ?'),
      // One slice of the missing photos (through photos_missing_idx), in id order.
      missingSlice: p('SELECT id, size FROM photos WHERE missing = 1 AND id > ? ORDER BY id LIMIT ?').raw(true),
      missingUnder: p('SELECT count(*) FROM photos WHERE missing = 1 AND path >= ? AND path < ?').pluck(),
      // Kept by triggers (migration 0007): counting a million missing photos took ~50 ms.
      missingCount: p(`SELECT coalesce((SELECT n FROM photo_counts WHERE key = 'missing'), 0)`).pluck(),
      // One slice of the missing photos (through photos_missing_idx), counted per folder.
      missingFolderSlice: p(
        `SELECT ${FOLDER_OF_PATH} AS dir, count(*), max(id)
           FROM (SELECT id, path FROM photos WHERE missing = 1 AND id > ? ORDER BY id LIMIT ${FOLDER_SLICE}) GROUP BY dir`,
      ).raw(),
    };
  }

  /**
   * In tx. `p` has the content of a photo already in the library. When that photo's file is
   * missing (or no longer where it was), the photo now lives at `p.path`; otherwise `p` is just a
   * second copy and nothing changes (null).
   */
  relinkIfMissing(p: FoundFile, now: number, via: { jobId?: number } = {}): Relinked | null {
    const row = this.s.bySha.get(p.sha256) as LocatedRow | undefined;
    if (!row || row.path === p.path) return null;
    if (!row.missing && fs.existsSync(row.path)) return null;
    return this.relink(row, p, now, via);
  }

  /**
   * In tx, for a Locate: when `p` has the content of a photo marked missing, that photo now lives
   * at `p.path` (null when it is already recorded there); undefined when no missing photo has it.
   * Photos not marked missing are left alone without looking at the disk: a place holding copies
   * of many present photos must not cost a file check each inside the transaction.
   */
  relinkMarkedMissing(p: FoundFile, now: number, via: { jobId?: number } = {}): Relinked | null | undefined {
    const row = this.s.bySha.get(p.sha256) as LocatedRow | undefined;
    if (!row?.missing) return undefined;
    return row.path === p.path ? null : this.relink(row, p, now, via);
  }

  private relink(row: LocatedRow, p: FoundFile, now: number, via: { jobId?: number }): Relinked {
    this.s.relink.run(p.path, p.filename, p.mtimeMs, now, row.id);
    this.ledger.append([
      { event: 'photo_relinked', actor: 'user', photoId: row.id, at: now, data: { from: row.path, to: p.path, ...via } },
    ]);
    return { id: row.id, reread: row.metadata_status === 'failed' };
  }

  /**
   * After a folder was imported again: its photos whose files were not found in it, and are not
   * on disk, are missing. Returns their ids.
   */
  markMissingUnder(root: string, seen: ReadonlySet<string>): number[] {
    const rows = this.s.under.all(...pathRange(root)) as { id: number; path: string }[];
    const gone = rows.filter((r) => !seen.has(r.path) && !fs.existsSync(r.path)).map((r) => r.id);
    if (gone.length) this.setMissing(gone.map((id) => ({ id, missing: true })));
    return gone;
  }

  /**
   * When the library opens: every photo's file is looked for (in the background, a page at a
   * time, a folder listed once for its photos: see ./file-presence.ts), and a photo is marked
   * missing, or found again, accordingly. Changes are reported as each slice of them commits;
   * returns how many changed.
   *
   * A drive that is not plugged in makes every photo on it missing at once: up to a million rows.
   * So the marks go in short transactions with a turn of the event loop between them (on a
   * 100,000-photo library, ~2 ms per 500-row transaction against ~0.1 ms per 100), and no list
   * of every changed id is built up.
   */
  async checkAll(signal: AbortSignal, onChanged: (ids: number[]) => void): Promise<number> {
    let changed = 0;
    for (let after = 0; ;) {
      if (signal.aborted) return changed;
      const rows = this.s.page.all(after, CHECK_PAGE) as { id: number; path: string; missing: number }[];
      if (!rows.length) return changed;
      after = rows[rows.length - 1].id;
      const found = await filesPresent(rows.map((r) => r.path));
      const updates = rows.filter((r, i) => !!r.missing === found[i]).map((r) => ({ id: r.id, missing: !r.missing }));
      for (let i = 0; i < updates.length; i += MARK_SLICE) {
        if (signal.aborted) return changed;
        const slice = updates.slice(i, i + MARK_SLICE);
        this.setMissing(slice);
        changed += slice.length;
        onChanged(slice.map((u) => u.id));
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  }

  /**
   * The sizes of the photos marked missing, for a Locate. A drive that is not plugged in makes up
   * to a million photos missing, and reading them in one go held main for seconds: they are read a
   * slice at a time, with a turn of the event loop between slices. Stops (throwing the signal's
   * reason) when the job is stopped meanwhile.
   */
  async missingSizes(signal: AbortSignal): Promise<MissingSizes> {
    // One per photo, repeats and all: a Set of a million sizes held main ~20 ms each time it grew
    // (the worker makes the Set, in its own process).
    const sizes: number[] = [];
    for (let after = 0; ;) {
      signal.throwIfAborted();
      const rows = this.s.missingSlice.all(after, SIZE_SLICE) as [number, number][];
      for (const row of rows) sizes.push(row[1]);
      if (rows.length < SIZE_SLICE) break;
      after = rows[rows.length - 1][0];
      await new Promise((resolve) => setImmediate(resolve));
    }
    return { sizes, missing: sizes.length };
  }

  /** How many photos are missing: all, or those whose files were in `folder`. */
  missingCount(folder?: string): number {
    return (folder ? this.s.missingUnder.get(...pathRange(folder)) : this.s.missingCount.get()) as number;
  }

  /** How many of these photos are missing. */
  missingAmong(ids: readonly number[]): number {
    let count = 0;
    for (let i = 0; i < ids.length; i += CHECK_PAGE) {
      const page = ids.slice(i, i + CHECK_PAGE);
      count += this.db.sqlite
        .prepare(`SELECT count(*) FROM photos WHERE missing = 1 AND id IN (${page.map(() => '?').join(',')})`)
        .pluck()
        .get(...page) as number;
    }
    return count;
  }

  /**
   * The folders the missing photos were in, most photos first (what the library offers to
   * locate). The Missing files view asks again on every photos.changed, and a drive that is not
   * plugged in makes up to a million photos missing: reading their paths in one go blocked main
   * for 3.4 s a call. So they are counted per folder in SQL, a slice at a time with a turn of the
   * event loop between slices, and one count runs at a time: a call made while one runs is
   * answered by the next, which starts when it ends and serves every call made meanwhile.
   */
  async missingFolders(limit: number): Promise<MissingFolders> {
    const { items, photos } = await this.folderCounts();
    return { items: items.slice(0, limit), folders: items.length, photos };
  }

  private counting: Promise<FolderCounts> | null = null;
  private countingNext: Promise<FolderCounts> | null = null;

  private folderCounts(): Promise<FolderCounts> {
    if (!this.counting) {
      this.counting = this.countFolders().finally(() => (this.counting = null));
      return this.counting;
    }
    this.countingNext ??= this.counting
      .catch(() => undefined)
      .then(() => {
        this.countingNext = null;
        return this.folderCounts();
      });
    return this.countingNext;
  }

  private async countFolders(): Promise<FolderCounts> {
    const counts = new Map<string, number>();
    let photos = 0;
    for (let after = 0; ;) {
      const rows = this.s.missingFolderSlice.all(after) as [string, number, number][];
      if (!rows.length) break;
      for (const [dir, n, last] of rows) {
        // As path.dirname gives it (no trailing separator but at the root).
        const folder = path.dirname(dir + '_');
        counts.set(folder, (counts.get(folder) ?? 0) + n);
        photos += n;
        after = Math.max(after, last);
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    const items = [...counts].map(([folder, count]) => ({ folder, count }));
    items.sort((a, b) => b.count - a.count || (a.folder < b.folder ? -1 : 1));
    return { items, photos };
  }

  private setMissing(updates: { id: number; missing: boolean }[]): void {
    const now = Date.now();
    this.db.immediate(() => {
      for (const u of updates) this.s.setMissing.run(u.missing ? 1 : 0, now, u.id, u.missing ? 1 : 0);
    });
  }
}

/** Every folder with missing photos (most first), and how many photos in all. */
type FolderCounts = Omit<MissingFolders, 'folders'>;
