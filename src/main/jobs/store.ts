/**
 * Every state transition of background_jobs lives here, each with its audit entry in the same
 * transaction. Writes about a running job are fenced on (status='running', claimed_by, attempt):
 * a fenced write that changes no row means the lease was lost and the caller must discard its result.
 *
 * Methods marked "in tx" expect the caller's BEGIN IMMEDIATE transaction (so results can be
 * group-committed); the others open their own.
 */
import type Database from 'better-sqlite3';
import type { LibraryDb } from '../db/open';
import type { AuditEntry, AuditLedger } from '../audit/ledger';
import type { SerializedJobError } from '../../shared/jobs/errors';
import type { JobStatus } from '../../shared/jobs/states';
import { retryDelayMs } from './backoff';

export interface JobRow {
  id: number;
  type: string;
  status: JobStatus;
  payload: string;
  subject: string | null;
  idempotency_key: string | null;
  priority: number;
  attempt: number;
  retry_count: number;
  max_retries: number;
  run_after: number;
  claimed_by: string | null;
  lease_expires_at: number | null;
  started_at: number | null;
  finished_at: number | null;
  result_summary: string | null;
  error_message: string | null;
  error_stack: string | null;
  progress: number | null;
  progress_message: string | null;
  cancel_requested_at: number | null;
  created_at: number;
  updated_at: number;
}

/** Who holds a running job: the fence for every write about it. */
export interface Lease {
  id: number;
  attempt: number;
  claimedBy: string;
}

export interface EnqueueRequest {
  type: string;
  payload: unknown;
  subject: string | null;
  maxRetries: number;
  priority?: number;
  runAfter?: number;
}

export type FailureOutcome = 'requeued' | 'failed' | 'cancelled' | 'lost';

const MAX_MESSAGE = 2000;
const MAX_STACK = 8000;
const clip = (s: string | undefined | null, n: number) => (s == null ? null : s.length > n ? s.slice(0, n) + '…' : s);

export class JobStore {
  readonly sqlite: Database.Database;
  private readonly s: Record<string, Database.Statement>;

  constructor(
    private readonly db: LibraryDb,
    private readonly ledger: AuditLedger,
    private readonly now: () => number = Date.now,
  ) {
    this.sqlite = db.sqlite;
    const p = (sql: string) => this.sqlite.prepare(sql);
    this.s = {
      insert: p(
        `INSERT INTO background_jobs (type, status, payload, subject, idempotency_key, priority, attempt, retry_count, max_retries, run_after, created_at, updated_at)
         VALUES (?, 'queued', ?, ?, ?, ?, 0, 0, ?, ?, ?, ?)
         ON CONFLICT (idempotency_key) DO NOTHING RETURNING *`,
      ),
      byKey: p('SELECT * FROM background_jobs WHERE idempotency_key = ?'),
      byId: p('SELECT * FROM background_jobs WHERE id = ?'),
      claim: p(
        `UPDATE background_jobs
            SET status = 'running', attempt = attempt + 1, claimed_by = ?, lease_expires_at = ?, started_at = ?,
                updated_at = ?, progress = NULL, progress_message = NULL
          WHERE id IN (SELECT id FROM background_jobs
                        WHERE status = 'queued' AND run_after <= ?
                        ORDER BY priority DESC, id LIMIT ?)
          RETURNING *`,
      ),
      claimType: p(
        `UPDATE background_jobs
            SET status = 'running', attempt = attempt + 1, claimed_by = ?, lease_expires_at = ?, started_at = ?,
                updated_at = ?, progress = NULL, progress_message = NULL
          WHERE id IN (SELECT id FROM background_jobs
                        WHERE status = 'queued' AND run_after <= ? AND type = ?
                        ORDER BY priority DESC, id LIMIT ?)
          RETURNING *`,
      ),
      renew: p(
        `UPDATE background_jobs SET lease_expires_at = ?
          WHERE id = ? AND status = 'running' AND claimed_by = ? AND attempt = ?
          RETURNING cancel_requested_at`,
      ),
      success: p(
        `UPDATE background_jobs
            SET status = 'success', idempotency_key = NULL, claimed_by = NULL, lease_expires_at = NULL,
                finished_at = ?, updated_at = ?, result_summary = ?, progress = 1, error_message = NULL, error_stack = NULL
          WHERE id = ? AND status = 'running' AND claimed_by = ? AND attempt = ? AND cancel_requested_at IS NULL`,
      ),
      fencedGet: p(`SELECT * FROM background_jobs WHERE id = ? AND status = 'running' AND claimed_by = ? AND attempt = ?`),
      toQueued: p(
        `UPDATE background_jobs
            SET status = 'queued', claimed_by = NULL, lease_expires_at = NULL, retry_count = ?, run_after = ?,
                updated_at = ?, error_message = ?, error_stack = ?, progress = NULL, progress_message = NULL
          WHERE id = ? AND status = 'running' AND claimed_by = ? AND attempt = ?`,
      ),
      toTerminal: p(
        `UPDATE background_jobs
            SET status = ?, idempotency_key = NULL, claimed_by = NULL, lease_expires_at = NULL, retry_count = ?,
                finished_at = ?, updated_at = ?, error_message = ?, error_stack = ?
          WHERE id = ? AND status = 'running' AND claimed_by = ? AND attempt = ?`,
      ),
      progress: p(
        `UPDATE background_jobs SET progress = ?, progress_message = ?, updated_at = ?
          WHERE id = ? AND status = 'running' AND claimed_by = ? AND attempt = ?`,
      ),
      cancelQueued: p(
        `UPDATE background_jobs
            SET status = 'cancelled', idempotency_key = NULL, cancel_requested_at = ?, finished_at = ?, updated_at = ?
          WHERE id = ? AND status = 'queued'`,
      ),
      requestCancel: p(
        `UPDATE background_jobs SET cancel_requested_at = ?, updated_at = ?
          WHERE id = ? AND status = 'running' AND cancel_requested_at IS NULL`,
      ),
      runNow: p(`UPDATE background_jobs SET run_after = ?, updated_at = ? WHERE id = ? AND status = 'queued'`),
      lapsed: p(`SELECT * FROM background_jobs WHERE status = 'running' AND lease_expires_at < ? LIMIT 500`),
      counts: p(`SELECT status, count(*) AS n FROM background_jobs GROUP BY status`),
      prune: p(`DELETE FROM background_jobs WHERE finished_at IS NOT NULL AND finished_at < ?`),
      unresolvedFailed: p(
        `SELECT f.* FROM background_jobs f
          WHERE f.status = 'failed'
            AND NOT EXISTS (SELECT 1 FROM background_jobs n
                             WHERE n.type = f.type AND n.id > f.id
                               AND (n.subject = f.subject OR (n.subject IS NULL AND f.subject IS NULL AND n.payload = f.payload)))
          ORDER BY f.id LIMIT 10000`,
      ),
    };
  }

  get(id: number): JobRow | undefined {
    return this.s.byId.get(id) as JobRow | undefined;
  }

  // ------------------------------------------------------------------ enqueue

  /**
   * Idempotent enqueue: at most one active job per (type, subject). A duplicate returns the
   * active job (created=false); after a terminal predecessor a new job is created.
   */
  enqueue(reqs: readonly EnqueueRequest[], actor: string): { job: JobRow; created: boolean }[] {
    return this.db.immediate(() => {
      const now = this.now();
      const out: { job: JobRow; created: boolean }[] = [];
      const audit: AuditEntry[] = [];
      for (const r of reqs) {
        const key = r.subject == null ? null : `${r.type}:${r.subject}`;
        const row = this.s.insert.get(
          r.type,
          JSON.stringify(r.payload),
          r.subject,
          key,
          r.priority ?? 0,
          r.maxRetries,
          r.runAfter ?? now,
          now,
          now,
        ) as JobRow | undefined;
        if (row) {
          out.push({ job: row, created: true });
          audit.push({ event: 'enqueued', actor, jobId: row.id, at: now, data: { type: r.type, subject: r.subject } });
        } else {
          out.push({ job: this.s.byKey.get(key) as JobRow, created: false });
        }
      }
      this.ledger.append(audit);
      return out;
    });
  }

  // ------------------------------------------------------------------ claim and lease

  /** Claims up to `limit` ready jobs, oldest first (higher priority before). `attempt` increments here. */
  claim(claimedBy: string, limit: number, leaseMs: number, type?: string): JobRow[] {
    return this.db.immediate(() => {
      const now = this.now();
      const rows = (
        type === undefined
          ? this.s.claim.all(claimedBy, now + leaseMs, now, now, now, limit)
          : this.s.claimType.all(claimedBy, now + leaseMs, now, now, now, type, limit)
      ) as JobRow[];
      // RETURNING gives rows in update order; keep the claim order (oldest first) for the worker.
      rows.sort((a, b) => b.priority - a.priority || a.id - b.id);
      this.ledger.append(
        rows.map((r) => ({ event: 'claimed', actor: claimedBy, jobId: r.id, at: now, data: { attempt: r.attempt } })),
      );
      return rows;
    });
  }

  /** Extends leases still held; reports which were lost and which have a cancel request. */
  renew(leases: readonly Lease[], leaseMs: number): { lost: Lease[]; cancelRequested: Lease[] } {
    return this.db.immediate(() => {
      const until = this.now() + leaseMs;
      const lost: Lease[] = [];
      const cancelRequested: Lease[] = [];
      for (const l of leases) {
        const row = this.s.renew.get(until, l.id, l.claimedBy, l.attempt) as { cancel_requested_at: number | null } | undefined;
        if (!row) lost.push(l);
        else if (row.cancel_requested_at != null) cancelRequested.push(l);
      }
      return { lost, cancelRequested };
    });
  }

  // ------------------------------------------------------------------ outcomes (in tx)

  /** In tx. Marks success; false if the lease was lost or a cancel was requested (discard the result). */
  markSuccess(l: Lease, resultSummary: string | null): boolean {
    const now = this.now();
    const changed = this.s.success.run(now, now, clip(resultSummary, MAX_MESSAGE), l.id, l.claimedBy, l.attempt).changes === 1;
    if (changed) this.ledger.append([{ event: 'succeeded', actor: l.claimedBy, jobId: l.id, at: now, data: { attempt: l.attempt } }]);
    return changed;
  }

  /**
   * In tx. Records a failed attempt: a permanent error fails the job; a retryable one requeues with
   * backoff while retries remain (charging one); retry_later requeues without charging. A pending
   * cancel request wins over everything.
   */
  markFailure(l: Lease, err: SerializedJobError, event = 'failed'): FailureOutcome {
    const row = this.s.fencedGet.get(l.id, l.claimedBy, l.attempt) as JobRow | undefined;
    if (!row) return 'lost';
    const now = this.now();
    const message = clip(err.message, MAX_MESSAGE);
    const stack = clip(err.stack, MAX_STACK);
    if (row.cancel_requested_at != null) {
      this.s.toTerminal.run('cancelled', row.retry_count, now, now, row.error_message, row.error_stack, l.id, l.claimedBy, l.attempt);
      this.ledger.append([{ event: 'cancelled', actor: l.claimedBy, jobId: l.id, at: now, data: { attempt: l.attempt } }]);
      return 'cancelled';
    }
    if (err.kind === 'retry_later') {
      const runAfter = now + Math.max(0, err.retryAfterMs ?? 60_000);
      this.s.toQueued.run(row.retry_count, runAfter, now, message, stack, l.id, l.claimedBy, l.attempt);
      this.ledger.append([
        { event: 'retry_later', actor: l.claimedBy, jobId: l.id, at: now, data: { attempt: l.attempt, runAfter, message } },
      ]);
      return 'requeued';
    }
    const retryable = err.kind === 'retryable' && row.retry_count < row.max_retries;
    if (retryable) {
      const runAfter = err.retryAfterMs != null ? now + err.retryAfterMs : now + retryDelayMs(row.retry_count);
      this.s.toQueued.run(row.retry_count + 1, runAfter, now, message, stack, l.id, l.claimedBy, l.attempt);
    } else {
      this.s.toTerminal.run('failed', row.retry_count, now, now, message, stack, l.id, l.claimedBy, l.attempt);
    }
    this.ledger.append([
      {
        event,
        actor: l.claimedBy,
        jobId: l.id,
        at: now,
        data: { attempt: l.attempt, retryable, permanent: err.kind === 'permanent', message },
      },
    ]);
    return retryable ? 'requeued' : 'failed';
  }

  /** In tx. A cancel request has been honoured (the handler stopped or its process was killed). */
  markCancelled(l: Lease): boolean {
    const row = this.s.fencedGet.get(l.id, l.claimedBy, l.attempt) as JobRow | undefined;
    if (!row) return false;
    const now = this.now();
    this.s.toTerminal.run('cancelled', row.retry_count, now, now, row.error_message, row.error_stack, l.id, l.claimedBy, l.attempt);
    this.ledger.append([{ event: 'cancelled', actor: l.claimedBy, jobId: l.id, at: now, data: { attempt: l.attempt } }]);
    return true;
  }

  /** In tx. Gives a job back without charging a retry (clean shutdown). */
  release(l: Lease): boolean {
    const row = this.s.fencedGet.get(l.id, l.claimedBy, l.attempt) as JobRow | undefined;
    if (!row) return false;
    const now = this.now();
    if (row.cancel_requested_at != null) return this.markCancelled(l);
    this.s.toQueued.run(row.retry_count, now, now, row.error_message, row.error_stack, l.id, l.claimedBy, l.attempt);
    this.ledger.append([{ event: 'released', actor: l.claimedBy, jobId: l.id, at: now, data: { attempt: l.attempt } }]);
    return true;
  }

  /** Fenced progress write; false when the lease is gone. */
  setProgress(l: Lease, progress: number, message: string | null): boolean {
    return this.s.progress.run(progress, clip(message, 200), this.now(), l.id, l.claimedBy, l.attempt).changes === 1;
  }

  /** Runs `fn` in one BEGIN IMMEDIATE transaction (group commit of several outcomes). */
  transaction<T>(fn: () => T): T {
    return this.db.immediate(fn);
  }

  // ------------------------------------------------------------------ rescue and housekeeping

  /**
   * Takes back running jobs whose lease lapsed (their runner died or hung): charged a retry,
   * failed when none remain, cancelled when a cancel was pending.
   */
  reclaimLapsed(actor: string): { requeued: number[]; failed: number[]; cancelled: number[] } {
    return this.db.immediate(() => {
      const out = { requeued: [] as number[], failed: [] as number[], cancelled: [] as number[] };
      const rows = this.s.lapsed.all(this.now()) as JobRow[];
      for (const r of rows) {
        const lease = { id: r.id, attempt: r.attempt, claimedBy: r.claimed_by! };
        const outcome = this.markFailure(
          lease,
          {
            kind: 'retryable',
            message: `The process running this job (${r.claimed_by}) stopped renewing its lease; it crashed, hung or was killed.`,
            retryAfterMs: 0,
          },
          'reclaimed',
        );
        if (outcome === 'requeued') out.requeued.push(r.id);
        else if (outcome === 'failed') out.failed.push(r.id);
        else if (outcome === 'cancelled') out.cancelled.push(r.id);
      }
      return out;
    });
  }

  /** Cancels a queued job at once; asks a running one to stop. Returns the row after the change. */
  cancel(id: number, actor: string): JobRow | undefined {
    return this.db.immediate(() => {
      const now = this.now();
      if (this.s.cancelQueued.run(now, now, now, id).changes === 1) {
        this.ledger.append([{ event: 'cancelled', actor, jobId: id, at: now, data: { wasQueued: true } }]);
      } else if (this.s.requestCancel.run(now, now, id).changes === 1) {
        this.ledger.append([{ event: 'cancel_requested', actor, jobId: id, at: now }]);
      }
      return this.get(id);
    });
  }

  runNow(id: number, actor: string): boolean {
    return this.db.immediate(() => {
      const now = this.now();
      const changed = this.s.runNow.run(now, now, id).changes === 1;
      if (changed) this.ledger.append([{ event: 'run_now', actor, jobId: id, at: now }]);
      return changed;
    });
  }

  /** Failed jobs with no later job for the same work. */
  unresolvedFailures(types?: readonly string[]): JobRow[] {
    const rows = this.s.unresolvedFailed.all() as JobRow[];
    return types?.length ? rows.filter((r) => types.includes(r.type)) : rows;
  }

  counts(): Record<JobStatus, number> {
    const out: Record<JobStatus, number> = { queued: 0, running: 0, success: 0, failed: 0, cancelled: 0 };
    for (const r of this.s.counts.all() as { status: JobStatus; n: number }[]) out[r.status] = r.n;
    return out;
  }

  list(filter: { statuses?: string[]; types?: string[]; subject?: string; ids?: number[]; beforeId?: number; limit: number }): {
    rows: JobRow[];
    total: number;
  } {
    const where: string[] = [];
    const args: unknown[] = [];
    if (filter.statuses?.length) {
      where.push(`status IN (${filter.statuses.map(() => '?').join(',')})`);
      args.push(...filter.statuses);
    }
    if (filter.types?.length) {
      where.push(`type IN (${filter.types.map(() => '?').join(',')})`);
      args.push(...filter.types);
    }
    if (filter.subject) {
      where.push('subject = ?');
      args.push(filter.subject);
    }
    if (filter.ids?.length) {
      where.push(`id IN (${filter.ids.map(() => '?').join(',')})`);
      args.push(...filter.ids);
    }
    const base = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const total = (this.sqlite.prepare(`SELECT count(*) FROM background_jobs ${base}`).pluck().get(...args) as number) ?? 0;
    const pageWhere = filter.beforeId ? (base ? `${base} AND id < ?` : 'WHERE id < ?') : base;
    const rows = this.sqlite
      .prepare(`SELECT * FROM background_jobs ${pageWhere} ORDER BY id DESC LIMIT ?`)
      .all(...args, ...(filter.beforeId ? [filter.beforeId] : []), filter.limit) as JobRow[];
    return { rows, total };
  }

  auditTrail(jobId: number): { id: number; at: number; event: string; actor: string; data: string }[] {
    return this.sqlite
      .prepare('SELECT id, at, event, actor, data FROM audit_events WHERE job_id = ? ORDER BY id')
      .all(jobId) as { id: number; at: number; event: string; actor: string; data: string }[];
  }

  /** Deletes finished jobs older than `olderThanMs`; the audit ledger keeps their history. */
  prune(olderThanMs: number): number {
    return this.db.immediate(() => this.s.prune.run(this.now() - olderThanMs).changes);
  }
}
