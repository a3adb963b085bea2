/**
 * Every state transition of background_jobs, each with its audit entry in the same transaction.
 * Writes about a running job are fenced on (status='running', claimed_by, attempt): a fenced
 * write that changes no row means the lease was lost and the caller must discard its result.
 * Reads for the UI live in ./queries.ts.
 *
 * Methods marked "in tx" expect the caller's transaction (so outcomes can be group-committed); the
 * others open their own. Every write goes through `transaction()`, the one commit primitive: the
 * outermost call is a BEGIN IMMEDIATE transaction, a nested one a savepoint, and audit entries are
 * buffered so that what a savepoint rolls back is never recorded.
 */
import type Database from 'better-sqlite3';
import type { LibraryDb } from '../../db/open';
import type { AuditEntry, AuditLedger } from '../../audit/ledger';
import type { SerializedJobError } from '../../../shared/jobs/errors';
import { retryDelayMs } from '../backoff';
import { TypeHookError } from '../type-hooks';
import { claimStatements, type ClaimFilter } from './claim';
import { enqueueStatements, type Enqueued } from './enqueue';
import { transitionStatements } from './transition-statements';
import type { EnqueueRequest, FailureOutcome, JobRow, Lease } from './rows';

const MAX_MESSAGE = 2000;
const MAX_STACK = 8000;
const clip = (s: string | undefined | null, n: number) => (s == null ? null : s.length > n ? s.slice(0, n) + '…' : s);

const fence = (l: Lease) => ({ id: l.id, claimedBy: l.claimedBy, attempt: l.attempt });

export class JobTransitions {
  readonly sqlite: Database.Database;
  private readonly enqueueSql: ReturnType<typeof enqueueStatements>;
  private readonly claimSql: ReturnType<typeof claimStatements>;
  private readonly s: ReturnType<typeof transitionStatements>;

  constructor(
    private readonly db: LibraryDb,
    private readonly ledger: AuditLedger,
    private readonly now: () => number = Date.now,
  ) {
    this.sqlite = db.sqlite;
    this.enqueueSql = enqueueStatements(this.sqlite);
    this.claimSql = claimStatements(this.sqlite);
    this.s = transitionStatements(this.sqlite);
  }

  // ------------------------------------------------------------------ enqueue

  /**
   * Idempotent enqueue: at most one active job per (type, subject). A duplicate returns the
   * active job (created=false); after a terminal predecessor a new job is created.
   */
  enqueue(reqs: readonly EnqueueRequest[], actor: string): Enqueued[] {
    return this.transaction(() => {
      const now = this.now();
      const out = this.enqueueSql.insert(reqs, now);
      this.audit(
        out
          .filter((o) => o.created)
          .map((o) => ({
            event: 'enqueued',
            actor,
            jobId: o.job.id,
            at: now,
            data: { type: o.job.type, subject: o.job.subject },
          })),
      );
      return out;
    });
  }

  // ------------------------------------------------------------------ claim and lease

  /**
   * Claims, in one transaction, the ready job with the highest priority that has waited longest
   * and up to `depth(type) - 1` more ready jobs of that type, for a worker to hold (never more
   * than `max` in all). With `filter.type`, claims only jobs of that type
   * (topping up a worker's queue). Only `filter.types` are claimed: a runner never takes a job it
   * has no handler for (another version of Circa sharing the library may). `attempt` increments
   * here, so a lapsed lease costs its job an attempt.
   */
  claim(claimedBy: string, leaseMs: number, filter: ClaimFilter): JobRow[] {
    if (filter.max <= 0 || (filter.types !== 'any' && !filter.types.length)) return [];
    const run = () => {
      const now = this.now();
      const rows = this.claimSql.claim(claimedBy, now, now + leaseMs, filter);
      this.audit(rows.map((r) => ({ event: 'claimed', actor: claimedBy, jobId: r.id, at: now, data: { attempt: r.attempt } })));
      return rows;
    };
    // Inside the runner's cycle transaction it is one more statement, not a savepoint.
    return this.sqlite.inTransaction ? run() : this.transaction(run);
  }

  /** How many jobs of each type are queued (ready or waiting out a backoff), from job_counts: a few rows. */
  queued(): { type: string; n: number }[] {
    return this.s.queued.all() as { type: string; n: number }[];
  }

  /** Extends leases still held; reports which were lost and which have a cancel request. */
  renew(leases: readonly Lease[], leaseMs: number): { lost: Lease[]; cancelRequested: Lease[] } {
    return this.transaction(() => {
      const until = this.now() + leaseMs;
      const lost: Lease[] = [];
      const cancelRequested: Lease[] = [];
      for (const l of leases) {
        const row = this.s.renew.get({ ...fence(l), until }) as { cancel_requested_at: number | null } | undefined;
        if (!row) lost.push(l);
        else if (row.cancel_requested_at != null) cancelRequested.push(l);
      }
      return { lost, cancelRequested };
    });
  }

  // ------------------------------------------------------------------ outcomes (in tx)

  /**
   * In tx. Marks success; false if the lease was lost or a cancel was requested (discard the result).
   * `actor`: someone other than the owner records it (a restore finishing the backup it restores).
   */
  markSuccess(l: Lease, resultSummary: string | null, hasKey = true, actor = l.claimedBy): boolean {
    const now = this.now();
    const stmt = hasKey ? this.s.success : this.s.successNoKey;
    const changed = stmt.run({ ...fence(l), now, summary: clip(resultSummary, MAX_MESSAGE) }).changes === 1;
    const data = actor !== l.claimedBy ? { attempt: l.attempt, owner: l.claimedBy } : { attempt: l.attempt };
    if (changed) this.audit([{ event: 'succeeded', actor, jobId: l.id, at: now, data }]);
    return changed;
  }

  /**
   * In tx. A step of a long job is done (see Continuation in ../registry.ts): store the payload to
   * resume from and the progress, fenced like every write about a running job. The job stays
   * `running` in the same lease and attempt; false when the lease was lost or a cancel is pending.
   */
  checkpoint(l: Lease, payload: unknown, progress: number, summary: string | null, leaseMs: number): boolean {
    const now = this.now();
    const args = {
      ...fence(l),
      payload: JSON.stringify(payload),
      progress,
      summary: clip(summary, MAX_MESSAGE),
      until: now + leaseMs,
      now,
    };
    return this.s.checkpoint.run(args).changes === 1;
  }

  /**
   * In tx. Records a failed attempt: a permanent error fails the job; a retryable one requeues with
   * backoff while retries remain (charging one); retry_later requeues without charging. A pending
   * cancel request wins over everything.
   */
  markFailure(
    l: Lease,
    err: SerializedJobError,
    o: {
      event?: string;
      actor?: string;
      /** The type's bookkeeping when the failure is final (see failWithHook). */
      onFailed?: (message: string) => void;
    } = {},
  ): FailureOutcome {
    const { event = 'failed', actor = l.claimedBy, onFailed } = o;
    if (!onFailed) return this.recordFailure(l, err, event, actor);
    // One savepoint: the failure mark, its audit entry and the hook's writes land together.
    try {
      return this.transaction(() => {
        const outcome = this.recordFailure(l, err, event, actor);
        if (outcome === 'failed') onFailed(clip(err.message, MAX_MESSAGE)!);
        return outcome;
      });
    } catch (hookErr) {
      // The hook's own fault (a machinery error passes through: the caller retries it all). The
      // savepoint took the mark and its audit entry with it; record the failure once more,
      // without the hook, saying what went wrong with it.
      if (!(hookErr instanceof TypeHookError)) throw hookErr;
      return this.recordFailure(l, { ...err, message: `${err.message} — ${hookErr.message}` }, event, actor);
    }
  }

  private recordFailure(l: Lease, err: SerializedJobError, event: string, actor: string): FailureOutcome {
    const row = this.s.held.get(fence(l)) as JobRow | undefined;
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
      this.s.toQueued.run({ ...fence(l), retryCount: row.retry_count, runAfter, now, message, stack, kind: err.kind });
      this.audit([
        { event: 'retry_later', actor: l.claimedBy, jobId: l.id, at: now, data: { attempt: l.attempt, runAfter, message } },
      ]);
      return 'requeued';
    }
    const retryable = err.kind === 'retryable' && row.retry_count < row.max_retries;
    if (retryable) {
      const runAfter = err.retryAfterMs != null ? now + err.retryAfterMs : now + retryDelayMs(row.retry_count);
      this.s.toQueued.run({ ...fence(l), retryCount: row.retry_count + 1, runAfter, now, message, stack, kind: err.kind });
    } else {
      this.s.toTerminal.run({ ...fence(l), status: 'failed', retryCount: row.retry_count, now, message, stack, kind: err.kind });
    }
    const data = { attempt: l.attempt, retryable, permanent: err.kind === 'permanent', message };
    // Taken back by someone else (a lapsed lease): say whose lease it was.
    this.audit([{ event, actor, jobId: l.id, at: now, data: actor !== l.claimedBy ? { ...data, owner: l.claimedBy } : data }]);
    return retryable ? 'requeued' : 'failed';
  }

  /** In tx. A cancel request has been honoured (the handler stopped or its process was killed). */
  markCancelled(l: Lease): boolean {
    const row = this.s.held.get(fence(l)) as JobRow | undefined;
    if (!row) return false;
    this.cancelHeld(l, row, this.now());
    return true;
  }

  /** In tx. A running job we hold ends `cancelled`, keeping its last error for the record. */
  private cancelHeld(l: Lease, row: JobRow, now: number): void {
    const args = {
      ...fence(l),
      status: 'cancelled',
      retryCount: row.retry_count,
      now,
      message: row.error_message,
      stack: row.error_stack,
      kind: row.error_kind,
    };
    this.s.toTerminal.run(args);
    this.audit([{ event: 'cancelled', actor: l.claimedBy, jobId: l.id, at: now, data: { attempt: l.attempt } }]);
  }

  /**
   * In tx. Gives a job back without charging a retry: a clean shutdown, a job taken back from a
   * busy worker for an idle one, or a job whose runner is known to be gone (`event`, `actor`).
   */
  release(l: Lease, event = 'released', actor = l.claimedBy): boolean {
    const row = this.s.held.get(fence(l)) as JobRow | undefined;
    if (!row) return false;
    const now = this.now();
    if (row.cancel_requested_at != null) return this.markCancelled(l);
    this.s.toQueued.run({
      ...fence(l),
      retryCount: row.retry_count,
      runAfter: now,
      now,
      message: row.error_message,
      stack: row.error_stack,
      kind: row.error_kind,
    });
    const data = actor !== l.claimedBy ? { attempt: l.attempt, owner: l.claimedBy } : { attempt: l.attempt };
    this.audit([{ event, actor, jobId: l.id, at: now, data }]);
    return true;
  }

  /** Fenced progress write; false when the lease is gone. */
  setProgress(l: Lease, progress: number, message: string | null): boolean {
    return this.s.progress.run({ ...fence(l), progress, message: clip(message, 200), now: this.now() }).changes === 1;
  }

  /**
   * The one commit primitive. Outermost, `fn` runs in a BEGIN IMMEDIATE transaction (a group
   * commit of several outcomes); nested, in a savepoint. Audit entries written inside are
   * buffered and appended, in order, when the outermost call commits (one chain read and
   * multi-row inserts instead of one of each per transition). When `fn` throws, the entries it
   * buffered are dropped with its writes: what rolls back is never recorded.
   */
  transaction<T>(fn: () => T): T {
    const buffer = this.auditBuffer;
    if (buffer) {
      const mark = buffer.length;
      try {
        return this.sqlite.transaction(fn)();
      } catch (err) {
        buffer.length = mark;
        throw err;
      }
    }
    return this.db.immediate(() => {
      const own: AuditEntry[] = [];
      this.auditBuffer = own;
      try {
        const result = fn();
        this.auditBuffer = null;
        if (own.length) this.ledger.append(own);
        return result;
      } finally {
        this.auditBuffer = null;
      }
    });
  }

  private auditBuffer: AuditEntry[] | null = null;

  /** Appends at the end of the enclosing `transaction()` (every writer here runs in one). */
  private audit(entries: AuditEntry[]): void {
    if (!entries.length) return;
    if (!this.auditBuffer) throw new Error('job transitions: an audited write outside transaction()');
    for (const e of entries) this.auditBuffer.push(e);
  }

  // ------------------------------------------------------------------ rescue and housekeeping

  /**
   * Takes back running jobs whose lease lapsed (their runner died or hung): charged a retry,
   * failed when none remain, cancelled when a cancel was pending.
   */
  reclaimLapsed(
    actor: string,
    /** The type's bookkeeping for a job that ends failed, run in the same transaction (see markFailure). */
    onFailedOf?: (row: JobRow) => ((message: string) => void) | undefined,
  ): { requeued: number[]; failed: number[]; cancelled: number[] } {
    return this.transaction(() => {
      const out = { requeued: [] as number[], failed: [] as number[], cancelled: [] as number[] };
      for (const r of this.s.lapsed.all({ now: this.now() }) as JobRow[]) {
        const lease = { id: r.id, attempt: r.attempt, claimedBy: r.claimed_by! };
        // Whose lease it was goes in the audit entry (`owner`), not in the archivist's message.
        const message =
          'The process running this job stopped answering: it crashed, hung or was killed (it stopped renewing its lease).';
        const error = { kind: 'retryable' as const, message, retryAfterMs: 0 };
        const outcome = this.markFailure(lease, error, { event: 'reclaimed', actor, onFailed: onFailedOf?.(r) });
        if (outcome === 'requeued') out.requeued.push(r.id);
        else if (outcome === 'failed') out.failed.push(r.id);
        else if (outcome === 'cancelled') out.cancelled.push(r.id);
      }
      return out;
    });
  }

  /**
   * Gives back at once, without charging a retry, running jobs whose owner is known to be gone
   * (`isGone(claimedBy)`: a runner of this machine whose process no longer exists), instead of
   * waiting for their leases to lapse. Jobs of a live runner, or of another machine, are left alone.
   */
  releaseOrphans(actor: string, isGone: (claimedBy: string) => boolean): number[] {
    return this.transaction(() => {
      const ids: number[] = [];
      for (const r of this.s.running.all() as JobRow[]) {
        if (!r.claimed_by || !isGone(r.claimed_by)) continue;
        if (this.release({ id: r.id, attempt: r.attempt, claimedBy: r.claimed_by }, 'orphan_released', actor)) ids.push(r.id);
      }
      return ids;
    });
  }

  /** Cancels a queued job at once; asks a running one to stop. Returns the row after the change. */
  cancel(id: number, actor: string): JobRow | undefined {
    return this.transaction(() => {
      const now = this.now();
      if (this.s.cancelQueued.run({ id, now }).changes === 1) {
        this.audit([{ event: 'cancelled', actor, jobId: id, at: now, data: { wasQueued: true } }]);
      } else if (this.s.requestCancel.run({ id, now }).changes === 1) {
        this.audit([{ event: 'cancel_requested', actor, jobId: id, at: now }]);
      }
      return this.get(id);
    });
  }

  runNow(id: number, actor: string): boolean {
    return this.transaction(() => {
      const now = this.now();
      const changed = this.s.runNow.run({ id, now }).changes === 1;
      if (changed) this.audit([{ event: 'run_now', actor, jobId: id, at: now }]);
      return changed;
    });
  }

  /**
   * The work the archivist is looking at goes first: queued jobs of these subjects get `priority`
   * (from the default 0), and queued jobs at `priority` whose subject is not among them go back to
   * 0. Not a state transition, so not audited (it would flood the ledger while the grid scrolls).
   */
  prioritize(subjects: readonly string[], priority: number): { raised: number; lowered: number } {
    return this.transaction(() => {
      const args = { subjects: JSON.stringify(subjects), priority };
      const lowered = this.s.lowerOutOfView.run(args).changes;
      const raised = subjects.length ? this.s.raiseInView.run(args).changes : 0;
      return { raised, lowered };
    });
  }

  /**
   * Marks failures as seen: dismissed by the archivist, or superseded by a new attempt at the same
   * work (`data` says which). Each gets its audit entry; a job that is not an unseen failure is
   * left alone. Returns the ids that changed.
   */
  acknowledge(ids: readonly number[], actor: string, data: Record<string, unknown>): number[] {
    return this.transaction(() => {
      const now = this.now();
      const done = ids.filter((id) => this.s.acknowledge.run({ id, now }).changes === 1);
      this.audit(done.map((jobId) => ({ event: 'acknowledged', actor, jobId, at: now, data })));
      return done;
    });
  }

  /** Every failure not yet seen (at most 10,000 at a time), oldest first: a partial index holds just these. */
  unseenFailures(): { id: number; type: string; subject: string | null }[] {
    return this.s.unseenFailures.all() as { id: number; type: string; subject: string | null }[];
  }

  /** Deletes up to `limit` finished jobs older than `olderThanMs`; the audit ledger keeps their history. */
  prune(olderThanMs: number, limit: number): number {
    return this.transaction(() => this.s.prune.run({ before: this.now() - olderThanMs, limit }).changes);
  }

  private get(id: number): JobRow | undefined {
    return this.s.byId.get({ id }) as JobRow | undefined;
  }
}
