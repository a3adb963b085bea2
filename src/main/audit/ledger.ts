/**
 * The append-only, hash-chained audit ledger. Each row's hash covers the previous row's hash and
 * its own fields, so editing or removing any row breaks every hash after it. Rows are appended in
 * the same transaction as the change they record (the caller's transaction).
 */
import crypto from 'node:crypto';
import type Database from 'better-sqlite3';

export const GENESIS_HASH = '0'.repeat(64);

export interface AuditEntry {
  event: string;
  actor: string;
  jobId?: number | null;
  photoId?: number | null;
  data?: Record<string, unknown>;
  at?: number;
}

export interface VerifyReport {
  ok: boolean;
  checked: number;
  /** The first row whose hash does not match, and why. */
  brokenAt?: { id: number; reason: string };
}

function rowHash(prevHash: string, at: number, event: string, actor: string, jobId: number | null, photoId: number | null, data: string): string {
  return crypto
    .createHash('sha256')
    .update(`${prevHash}\n${at}\n${event}\n${actor}\n${jobId ?? ''}\n${photoId ?? ''}\n${data}`)
    .digest('hex');
}

export class AuditLedger {
  private readonly lastHash: Database.Statement;
  private readonly insert: Database.Statement;

  constructor(private readonly sqlite: Database.Database) {
    this.lastHash = sqlite.prepare('SELECT hash FROM audit_events ORDER BY id DESC LIMIT 1').pluck();
    this.insert = sqlite.prepare(
      'INSERT INTO audit_events (at, event, actor, job_id, photo_id, data, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
  }

  /** Appends entries in order. Must run inside the caller's write transaction. */
  append(entries: readonly AuditEntry[]): void {
    if (!entries.length) return;
    if (!this.sqlite.inTransaction) throw new Error('audit entries must be appended inside a transaction');
    let prev = (this.lastHash.get() as string | undefined) ?? GENESIS_HASH;
    const now = Date.now();
    for (const e of entries) {
      const at = e.at ?? now;
      const data = JSON.stringify(e.data ?? {});
      const jobId = e.jobId ?? null;
      const photoId = e.photoId ?? null;
      const hash = rowHash(prev, at, e.event, e.actor, jobId, photoId, data);
      this.insert.run(at, e.event, e.actor, jobId, photoId, data, prev, hash);
      prev = hash;
    }
  }

  verify(): VerifyReport {
    let prev = GENESIS_HASH;
    let checked = 0;
    const rows = this.sqlite
      .prepare('SELECT id, at, event, actor, job_id, photo_id, data, prev_hash, hash FROM audit_events ORDER BY id')
      .iterate() as IterableIterator<{
      id: number;
      at: number;
      event: string;
      actor: string;
      job_id: number | null;
      photo_id: number | null;
      data: string;
      prev_hash: string;
      hash: string;
    }>;
    for (const r of rows) {
      if (r.prev_hash !== prev) return { ok: false, checked, brokenAt: { id: r.id, reason: 'previous-hash link does not match (a row was removed or reordered)' } };
      const expected = rowHash(prev, r.at, r.event, r.actor, r.job_id, r.photo_id, r.data);
      if (expected !== r.hash) return { ok: false, checked, brokenAt: { id: r.id, reason: 'row contents do not match its hash (the row was edited)' } };
      prev = r.hash;
      checked++;
    }
    return { ok: true, checked };
  }
}
