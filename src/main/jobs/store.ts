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

const INSERT_JOB = `INSERT INTO background_jobs (type, status, payload, subject, idempotency_key, priority, attempt, retry_count, max_retries, run_after, created_at, updated_at) VALUES`;
const JOB_VALUES = `(?, 'queued', ?, ?, ?, ?, 0, 0, ?, ?, ?, ?)`;
/** Jobs per multi-row INSERT in a bulk enqueue (9 parameters each). */
const ENQUEUE_CHUNK = 64;

/**
 * What a claim reads back: the columns a queued row can differ in. The rest are known from the
 * claim itself (see `claim`); RETURNING * would cost about as much as the update.
 */
const CLAIM_RETURNING = `id, type, payload, subject, idempotency_key, priority, attempt, retry_count, max_retries, run_after,
  error_message, error_stack, cancel_requested_at, created_at`;

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
      // No RETURNING *: building a full row object in SQLite costs ~4× the insert itself; the
      // enqueued row is known, so it is assembled in JS (see `queuedRow`).
      insert: p(`${INSERT_JOB} ${JOB_VALUES} ON CONFLICT (idempotency_key) DO NOTHING`),
      insertChunk: p(`${INSERT_JOB} ${Array(ENQUEUE_CHUNK).fill(JOB_VALUES).join(', ')} RETURNING id`).pluck(),
      byKey: p('SELECT * FROM background_jobs WHERE idempotency_key = ?'),
      byId: p('SELECT * FROM background_jobs WHERE id = ?'),
      // The ready job with the highest priority, then the one ready longest (run_after, id). Both
      // claim statements walk background_jobs_claim_idx (status, priority, run_after, id) in index
      // order and stop after `limit` rows; an ORDER BY the index cannot deliver would sort every
      // queued row on every claim (quadratic over a large backlog).
      claim: p(
        `UPDATE background_jobs
            SET status = 'running', attempt = attempt + 1, claimed_by = @by, lease_expires_at = @until, started_at = @now,
                updated_at = @now, progress = NULL, progress_message = NULL
          WHERE id IN (SELECT id FROM background_jobs
                        WHERE status = 'queued' AND run_after <= @now
                          AND priority = (SELECT priority FROM background_jobs
                                           WHERE status = 'queued' AND run_after <= @now ORDER BY priority DESC LIMIT 1)
                        ORDER BY run_after, id LIMIT @limit)
          RETURNING ${CLAIM_RETURNING}`,
      ),
      claimType: p(
        `UPDATE background_jobs
            SET status = 'running', attempt = attempt + 1, claimed_by = @by, lease_expires_at = @until, started_at = @now,
                updated_at = @now, progress = NULL, progress_message = NULL
          WHERE id IN (SELECT id FROM background_jobs
                        WHERE status = 'queued' AND run_after <= @now AND type = @type
                          AND priority = (SELECT priority FROM background_jobs
                                           WHERE status = 'queued' AND run_after <= @now ORDER BY priority DESC LIMIT 1)
                        ORDER BY run_after, id LIMIT @limit)
          RETURNING ${CLAIM_RETURNING}`,
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
      // The same for a job without a subject: not naming idempotency_key leaves its index alone
      // (one page less to write per commit).
      checkpoint: p(
        `UPDATE background_jobs SET payload = ?, progress = ?, progress_message = ?, result_summary = ?, lease_expires_at = ?, updated_at = ?
          WHERE id = ? AND status = 'running' AND claimed_by = ? AND attempt = ? AND cancel_requested_at IS NULL`,
      ),
      successNoKey: p(
        `UPDATE background_jobs
            SET status = 'success', claimed_by = NULL, lease_expires_at = NULL,
                finished_at = ?, updated_at = ?, result_summary = ?, progress = 1, error_message = NULL, error_stack = NULL
          WHERE id = ? AND status = 'running' AND claimed_by = ? AND attempt = ? AND cancel_requested_at IS NULL
            AND idempotency_key IS NULL`,
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
      prune: p(
        `DELETE FROM background_jobs WHERE id IN (SELECT id FROM background_jobs WHERE finished_at IS NOT NULL AND finished_at < ? LIMIT ?)`,
      ),
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
      const out: { job: JobRow; created: boolean }[] = new Array(reqs.length);
      const audit: AuditEntry[] = [];
      const created = (i: number, row: JobRow) => {
        out[i] = { job: row, created: true };
        audit.push({ event: 'enqueued', actor, jobId: row.id, at: now, data: { type: row.type, subject: row.subject } });
      };
      // Runs of jobs without a subject cannot conflict: they go in multi-row INSERTs. Jobs with a
      // subject go one by one (ON CONFLICT finds the active duplicate). Ids follow request order.
      let run: number[] = [];
      const insertRun = () => {
        let k = 0;
        for (; k + ENQUEUE_CHUNK <= run.length; k += ENQUEUE_CHUNK) {
          const chunk = run.slice(k, k + ENQUEUE_CHUNK);
          const rows = chunk.map((i) => this.queuedRow(reqs[i], null, now));
          const params: unknown[] = [];
          for (const r of rows) params.push(r.type, r.payload, r.subject, null, r.priority, r.max_retries, r.run_after, now, now);
          // AUTOINCREMENT hands out increasing ids in VALUES order.
          const ids = (this.s.insertChunk.all(params) as number[]).sort((a, b) => a - b);
          for (let j = 0; j < chunk.length; j++) {
            rows[j].id = ids[j];
            created(chunk[j], rows[j]);
          }
        }
        for (; k < run.length; k++) {
          const row = this.queuedRow(reqs[run[k]], null, now);
          const info = this.s.insert.run(
            row.type,
            row.payload,
            row.subject,
            null,
            row.priority,
            row.max_retries,
            row.run_after,
            now,
            now,
          );
          row.id = Number(info.lastInsertRowid);
          created(run[k], row);
        }
        run = [];
      };
      reqs.forEach((r, i) => {
        if (r.subject == null) {
          run.push(i);
          return;
        }
        insertRun();
        const key = `${r.type}:${r.subject}`;
        const row = this.queuedRow(r, key, now);
        const info = this.s.insert.run(
          row.type,
          row.payload,
          row.subject,
          key,
          row.priority,
          row.max_retries,
          row.run_after,
          now,
          now,
        );
        if (info.changes === 1) created(i, { ...row, id: Number(info.lastInsertRowid) });
        else out[i] = { job: this.s.byKey.get(key) as JobRow, created: false };
      });
      insertRun();
      this.audit(audit);
      return out;
    });
  }

  /** The row an INSERT of `r` writes (every column; `id` filled in by the caller). */
  private queuedRow(r: EnqueueRequest, key: string | null, now: number): JobRow {
    return {
      id: 0,
      type: r.type,
      status: 'queued',
      payload: JSON.stringify(r.payload),
      subject: r.subject,
      idempotency_key: key,
      priority: r.priority ?? 0,
      attempt: 0,
      retry_count: 0,
      max_retries: r.maxRetries,
      run_after: r.runAfter ?? now,
      claimed_by: null,
      lease_expires_at: null,
      started_at: null,
      finished_at: null,
      result_summary: null,
      error_message: null,
      error_stack: null,
      progress: null,
      progress_message: null,
      cancel_requested_at: null,
      created_at: now,
      updated_at: now,
    };
  }

  // ------------------------------------------------------------------ claim and lease

  /**
   * Claims, in one transaction, the ready job with the highest priority that has waited longest
   * and, when its type allows batches, up to `batchSize(type) - 1` more ready jobs of that type
   * (never more than `max` in all). With `type`, claims only jobs of that type (topping up a
   * worker's batch). `attempt` increments here, so a lapsed lease costs its job an attempt.
   */
  claim(claimedBy: string, leaseMs: number, opts: { max: number; batchSize(type: string): number; type?: string }): JobRow[] {
    if (opts.max <= 0) return [];
    const run = () => {
      const now = this.now();
      const args = { by: claimedBy, until: now + leaseMs, now };
      let partial: JobRow[];
      if (opts.type === undefined) {
        partial = this.s.claim.all({ ...args, limit: 1 }) as JobRow[];
        const extra = partial.length ? Math.min(opts.batchSize(partial[0].type), opts.max) - 1 : 0;
        if (extra > 0)
          partial = partial.concat(this.s.claimType.all({ ...args, type: partial[0].type, limit: extra }) as JobRow[]);
      } else {
        partial = this.s.claimType.all({ ...args, type: opts.type, limit: opts.max }) as JobRow[];
      }
      const rows = partial.map((r): JobRow => ({
        id: r.id,
        type: r.type,
        status: 'running',
        payload: r.payload,
        subject: r.subject,
        idempotency_key: r.idempotency_key,
        priority: r.priority,
        attempt: r.attempt,
        retry_count: r.retry_count,
        max_retries: r.max_retries,
        run_after: r.run_after,
        claimed_by: claimedBy,
        lease_expires_at: args.until,
        started_at: now,
        finished_at: null,
        result_summary: null,
        error_message: r.error_message,
        error_stack: r.error_stack,
        progress: null,
        progress_message: null,
        cancel_requested_at: r.cancel_requested_at,
        created_at: r.created_at,
        updated_at: now,
      }));
      // RETURNING gives rows in update order; hand them to the worker in claim order.
      rows.sort((a, b) => b.priority - a.priority || a.run_after - b.run_after || a.id - b.id);
      this.audit(rows.map((r) => ({ event: 'claimed', actor: claimedBy, jobId: r.id, at: now, data: { attempt: r.attempt } })));
      return rows;
    };
    // Inside the runner's cycle transaction it is one more statement, not a savepoint.
    return this.sqlite.inTransaction ? run() : this.db.immediate(run);
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
  markSuccess(l: Lease, resultSummary: string | null, hasKey = true): boolean {
    const now = this.now();
    const stmt = hasKey ? this.s.success : this.s.successNoKey;
    const changed = stmt.run(now, now, clip(resultSummary, MAX_MESSAGE), l.id, l.claimedBy, l.attempt).changes === 1;
    if (changed) this.audit([{ event: 'succeeded', actor: l.claimedBy, jobId: l.id, at: now, data: { attempt: l.attempt } }]);
    return changed;
  }

  /**
   * In tx. A step of a long job is done (see Continuation in registry.ts): store the payload to
   * resume from and the progress, fenced like every write about a running job. The job stays
   * `running` in the same lease and attempt; false when the lease was lost or a cancel is pending.
   */
  checkpoint(l: Lease, payload: unknown, progress: number, summary: string | null, leaseMs: number): boolean {
    const now = this.now();
    const text = clip(summary, MAX_MESSAGE);
    return (
      this.s.checkpoint.run(JSON.stringify(payload), progress, text, text, now + leaseMs, now, l.id, l.claimedBy, l.attempt)
        .changes === 1
    );
  }

  /**
   * In tx. Records a failed attempt: a permanent error fails the job; a retryable one requeues with
   * backoff while retries remain (charging one); retry_later requeues without charging. A pending
   * cancel request wins over everything.
   */
  markFailure(l: Lease, err: SerializedJobError, event = 'failed', actor = l.claimedBy): FailureOutcome {
    const row = this.s.fencedGet.get(l.id, l.claimedBy, l.attempt) as JobRow | undefined;
    if (!row) return 'lost';
    const now = this.now();
    const message = clip(err.message, MAX_MESSAGE);
    const stack = clip(err.stack, MAX_STACK);
    if (row.cancel_requested_at != null) {
      this.cancelHeld(l, row, now);
      return 'cancelled';
    }
    if (err.kind === 'retry_later') {
      const runAfter = now + Math.max(0, err.retryAfterMs ?? 60_000);
      this.s.toQueued.run(row.retry_count, runAfter, now, message, stack, l.id, l.claimedBy, l.attempt);
      this.audit([
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
    this.audit([
      {
        event,
        actor,
        jobId: l.id,
        at: now,
        data: {
          attempt: l.attempt,
          retryable,
          permanent: err.kind === 'permanent',
          message,
          // Taken back by someone else (a lapsed lease): say whose lease it was.
          ...(actor !== l.claimedBy ? { owner: l.claimedBy } : {}),
        },
      },
    ]);
    return retryable ? 'requeued' : 'failed';
  }

  /** In tx. A cancel request has been honoured (the handler stopped or its process was killed). */
  markCancelled(l: Lease): boolean {
    const row = this.s.fencedGet.get(l.id, l.claimedBy, l.attempt) as JobRow | undefined;
    if (!row) return false;
    this.cancelHeld(l, row, this.now());
    return true;
  }

  /** In tx. A running job we hold ends `cancelled`, keeping its last error for the record. */
  private cancelHeld(l: Lease, row: JobRow, now: number): void {
    this.s.toTerminal.run(
      'cancelled',
      row.retry_count,
      now,
      now,
      row.error_message,
      row.error_stack,
      l.id,
      l.claimedBy,
      l.attempt,
    );
    this.audit([{ event: 'cancelled', actor: l.claimedBy, jobId: l.id, at: now, data: { attempt: l.attempt } }]);
  }

  /** In tx. Gives a job back without charging a retry (clean shutdown). */
  release(l: Lease): boolean {
    const row = this.s.fencedGet.get(l.id, l.claimedBy, l.attempt) as JobRow | undefined;
    if (!row) return false;
    const now = this.now();
    if (row.cancel_requested_at != null) return this.markCancelled(l);
    this.s.toQueued.run(row.retry_count, now, now, row.error_message, row.error_stack, l.id, l.claimedBy, l.attempt);
    this.audit([{ event: 'released', actor: l.claimedBy, jobId: l.id, at: now, data: { attempt: l.attempt } }]);
    return true;
  }

  /** Fenced progress write; false when the lease is gone. */
  setProgress(l: Lease, progress: number, message: string | null): boolean {
    return this.s.progress.run(progress, clip(message, 200), this.now(), l.id, l.claimedBy, l.attempt).changes === 1;
  }

  /**
   * Runs `fn` in one BEGIN IMMEDIATE transaction (group commit of several outcomes). Audit
   * entries written inside are buffered and appended, in order, at the end of the transaction
   * (one chain read and multi-row inserts instead of one of each per transition); if `fn`
   * throws, they are discarded with everything else.
   */
  transaction<T>(fn: () => T): T {
    if (this.auditBuffer) return this.db.immediate(fn); // nested: a savepoint; the outer one appends
    return this.db.immediate(() => {
      const buffer: AuditEntry[] = [];
      this.auditBuffer = buffer;
      try {
        const result = fn();
        this.auditBuffer = null;
        this.ledger.append(buffer);
        return result;
      } finally {
        this.auditBuffer = null;
      }
    });
  }

  private auditBuffer: AuditEntry[] | null = null;

  /** Appends now, or at the end of the enclosing `transaction()`. */
  private audit(entries: AuditEntry[]): void {
    if (!entries.length) return;
    if (this.auditBuffer) for (const e of entries) this.auditBuffer.push(e);
    else this.ledger.append(entries);
  }

  // ------------------------------------------------------------------ rescue and housekeeping

  /**
   * Takes back running jobs whose lease lapsed (their runner died or hung): charged a retry,
   * failed when none remain, cancelled when a cancel was pending.
   */
  reclaimLapsed(
    actor: string,
    /** Called in the same transaction for each job that ends failed (the type's own bookkeeping). */
    onFailed?: (row: JobRow, message: string) => void,
  ): { requeued: number[]; failed: number[]; cancelled: number[] } {
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
          actor,
        );
        if (outcome === 'requeued') out.requeued.push(r.id);
        else if (outcome === 'failed') {
          out.failed.push(r.id);
          onFailed?.(r, this.get(r.id)?.error_message ?? 'The lease lapsed');
        } else if (outcome === 'cancelled') out.cancelled.push(r.id);
      }
      return out;
    });
  }

  /** Cancels a queued job at once; asks a running one to stop. Returns the row after the change. */
  cancel(id: number, actor: string): JobRow | undefined {
    return this.db.immediate(() => {
      const now = this.now();
      if (this.s.cancelQueued.run(now, now, now, id).changes === 1) {
        this.audit([{ event: 'cancelled', actor, jobId: id, at: now, data: { wasQueued: true } }]);
      } else if (this.s.requestCancel.run(now, now, id).changes === 1) {
        this.audit([{ event: 'cancel_requested', actor, jobId: id, at: now }]);
      }
      return this.get(id);
    });
  }

  runNow(id: number, actor: string): boolean {
    return this.db.immediate(() => {
      const now = this.now();
      const changed = this.s.runNow.run(now, now, id).changes === 1;
      if (changed) this.audit([{ event: 'run_now', actor, jobId: id, at: now }]);
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
    const total =
      (this.sqlite
        .prepare(`SELECT count(*) FROM background_jobs ${base}`)
        .pluck()
        .get(...args) as number) ?? 0;
    const pageWhere = filter.beforeId ? (base ? `${base} AND id < ?` : 'WHERE id < ?') : base;
    const rows = this.sqlite
      .prepare(`SELECT * FROM background_jobs ${pageWhere} ORDER BY id DESC LIMIT ?`)
      .all(...args, ...(filter.beforeId ? [filter.beforeId] : []), filter.limit) as JobRow[];
    return { rows, total };
  }

  auditTrail(jobId: number): { id: number; at: number; event: string; actor: string; data: string }[] {
    return this.sqlite.prepare('SELECT id, at, event, actor, data FROM audit_events WHERE job_id = ? ORDER BY id').all(jobId) as {
      id: number;
      at: number;
      event: string;
      actor: string;
      data: string;
    }[];
  }

  /** The library's `jobRetentionDays` setting in ms (30 days when unset or invalid). */
  configuredRetentionMs(): number {
    const DAY = 86_400_000;
    try {
      const raw = this.sqlite.prepare(`SELECT value FROM settings WHERE key = 'jobRetentionDays'`).pluck().get() as
        string | undefined;
      const days = raw === undefined ? NaN : Number(JSON.parse(raw));
      return Number.isFinite(days) && days >= 1 ? days * DAY : 30 * DAY;
    } catch {
      return 30 * DAY;
    }
  }

  /** Deletes finished jobs older than `olderThanMs`; the audit ledger keeps their history. */
  prune(olderThanMs: number, limit = -1): number {
    // `limit` bounds one transaction (the runner prunes a large backlog over several sweeps).
    return this.db.immediate(() => this.s.prune.run(this.now() - olderThanMs, limit).changes);
  }
}
