/**
 * Group commit: the outcomes of many jobs (from every worker) and the next claims in one write
 * transaction. A success is the type's `apply` and the fenced success mark together; a failure
 * is the fenced failure mark (and the type's `onFailed` when it is final); a release gives a job
 * back without charging it. Nothing here touches a process: the runner acts on what it returns
 * once the transaction has committed.
 *
 * Every write goes through JobTransitions.transaction (a savepoint when nested), so what rolls
 * back is never recorded in the audit ledger. What a type's hook throws is classified once
 * (../type-hooks.ts): a machinery error leaves this transaction untouched for the runner to retry;
 * anything else fails that job alone, with its reason, and the others commit.
 *
 * Outcomes take a fast path with no savepoint per job. If an apply throws, or a fence fails after
 * an apply wrote something, the whole transaction is rolled back and redone with a savepoint per
 * outcome, so a job's writes never commit without its success mark and one broken outcome
 * cannot block the others. An `onFailed` runs in a savepoint of its own on either path (see
 * JobTransitions.markFailure).
 */
import { serializeJobError, type SerializedJobError } from '../../../shared/jobs/errors';
import type { JobResultMessage } from '../../../shared/worker-protocol';
import type { Continuation } from '../registry';
import type { JobTransitions } from '../store/transitions';
import { isMachineryError } from '../machinery';
import { callHook, onFailedHook, TypeHookError } from '../type-hooks';
import type { Logger } from '../../logger';
import { seconds } from './running-job';
import type { Attempt } from './attempt';

/** A worker's output, already checked against the type's schema (outside the write lock). */
export type CheckedOutput =
  { success: true; data: unknown } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };

export type Outcome =
  | { kind: 'result'; job: Attempt; msg: JobResultMessage; output?: CheckedOutput }
  | { kind: 'fail'; job: Attempt; error: SerializedJobError }
  /** Give back without charging: shutdown, a worker gone before the job started, a job taken back for an idle worker. */
  | { kind: 'release'; job: Attempt; event?: string };

export interface Settled {
  succeeded: number;
  failed: number;
  discarded: number;
  /** Log lines, written only once the transaction has committed. */
  notes: string[];
  /** Owners (worker slots) of each success. */
  succeededBy: string[];
  /** Jobs that checkpointed and go on with their next step once the transaction commits. */
  continued: { job: Attempt; payload: unknown }[];
}

const settled = (): Settled => ({ succeeded: 0, failed: 0, discarded: 0, notes: [], succeededBy: [], continued: [] });

function merge(into: Settled, from: Settled): void {
  into.succeeded += from.succeeded;
  into.failed += from.failed;
  into.discarded += from.discarded;
  into.notes.push(...from.notes);
  into.succeededBy.push(...from.succeededBy);
  into.continued.push(...from.continued);
}

class LeaseLost extends Error {}
/** Abandons a fast-path group commit so it is redone with a savepoint per outcome. */
class Redo extends Error {}

export class Completer {
  constructor(
    private readonly transitions: JobTransitions,
    private readonly leaseMs: number,
    private readonly log: Logger,
  ) {}

  /**
   * One write transaction: `outcomes`, then `alsoInTx` (the runner's claims). Throws a machinery
   * error untouched (nothing was written; the caller keeps the outcomes and backs off).
   */
  commit<T>(batch: readonly Outcome[], alsoInTx: () => T): { settled: Settled; then: T } {
    let out!: { settled: Settled; then: T };
    const body = (careful: boolean) => () => {
      out = { settled: this.settleAll(batch, careful), then: alsoInTx() };
    };
    try {
      this.transitions.transaction(body(false));
    } catch (err) {
      if (!(err instanceof Redo)) throw err;
      this.transitions.transaction(body(true));
    }
    return out;
  }

  private settleAll(batch: readonly Outcome[], careful: boolean): Settled {
    const done = settled();
    for (const outcome of batch) {
      if (!careful) {
        this.settle(outcome, done, false);
        continue;
      }
      const one = settled();
      try {
        this.transitions.transaction(() => this.settle(outcome, one, true));
        merge(done, one);
      } catch (err) {
        if (isMachineryError(err)) throw err;
        // A bug in the store: record the job as failed rather than retrying the whole group
        // commit forever.
        const { job } = outcome;
        const error = serializeJobError(err, "Circa could not record this job's outcome");
        this.log.error(`job ${job.lease.id}: ${error.message}\n${error.stack ?? ''}`);
        try {
          this.transitions.transaction(() => {
            if (this.transitions.markFailure(job.lease, { ...error, kind: 'permanent' }) === 'failed') done.failed++;
          });
        } catch (err2) {
          if (isMachineryError(err2)) throw err2;
          done.notes.push(`job ${job.lease.id}: outcome dropped; its lease will lapse and it will be retried`);
        }
      }
    }
    return done;
  }

  private settle(outcome: Outcome, done: Settled, careful: boolean): void {
    const { job } = outcome;
    if (outcome.kind === 'release') {
      this.transitions.release(job.lease, outcome.event);
      return;
    }
    if (job.abortReason === 'lost') {
      done.discarded++;
      done.notes.push(`job ${job.lease.id} attempt ${job.lease.attempt}: lease lost, result discarded`);
      return;
    }
    if (outcome.kind === 'fail') return this.recordFailure(job, outcome.error, done);
    const { msg, output } = outcome;
    if (job.abortReason === 'timeout') {
      return this.recordFailure(
        job,
        { kind: 'retryable', message: `Timed out after ${seconds(job.definition.policy.timeoutMs)}` },
        done,
      );
    }
    if (!msg.ok) return this.recordFailure(job, msg.error, done);
    if (!output?.success) {
      const issues = output?.error.issues ?? [];
      const listed = issues
        .slice(0, 3)
        .map((i) => `${i.path.map(String).join('.')}: ${i.message}`)
        .join('; ');
      return this.recordFailure(
        job,
        { kind: 'permanent', message: `The ${job.row.type} handler returned output that does not match its schema: ${listed}` },
        done,
      );
    }
    if (!careful) {
      // Fast path: apply, then the fenced success mark. Anything unusual rolls the whole group
      // commit back (Redo) and it is redone with savepoints.
      let committed: boolean;
      try {
        committed = this.applyAndMarkSuccess(job, output.data, done);
      } catch (err) {
        if (isMachineryError(err)) throw err;
        throw new Redo();
      }
      if (!committed) throw new Redo();
      return;
    }
    try {
      // A savepoint: apply's writes and the success mark commit together or not at all.
      const one = settled();
      this.transitions.transaction(() => {
        if (!this.applyAndMarkSuccess(job, output.data, one)) throw new LeaseLost();
      });
      merge(done, one);
    } catch (err) {
      if (err instanceof LeaseLost) {
        // Cancel requested while it ran: honour it; otherwise someone else owns the job now.
        if (!this.transitions.markCancelled(job.lease)) {
          done.discarded++;
          done.notes.push(`job ${job.lease.id} attempt ${job.lease.attempt}: lease lost, result discarded`);
        }
        return;
      }
      if (!(err instanceof TypeHookError)) throw err;
      this.recordFailure(job, serializeJobError(err.cause, 'Could not save the result'), done);
    }
  }

  /**
   * In the transaction: the type's `apply` and the fenced success mark. False when the fence
   * failed; the caller then rolls back whatever apply wrote.
   */
  private applyAndMarkSuccess(job: Attempt, data: unknown, done: Settled): boolean {
    const result = callHook('apply', job.row.type, () => job.half.apply(data, job.ctx));
    if (result !== null && typeof result === 'object') {
      // A checkpoint: the job goes on with the next step in the same lease once this commits.
      const step = result as Continuation<unknown>;
      const progress = Math.max(0, Math.min(1, step.progress));
      if (!this.transitions.checkpoint(job.lease, step.continueWith, progress, step.summary, this.leaseMs)) return false;
      done.continued.push({ job, payload: step.continueWith });
      return true;
    }
    if (!this.transitions.markSuccess(job.lease, result, job.row.idempotency_key != null)) return false;
    done.succeeded++;
    done.succeededBy.push(job.lease.claimedBy);
    return true;
  }

  private recordFailure(job: Attempt, error: SerializedJobError, counters: Settled): void {
    // When the failure is final, the type's own bookkeeping (e.g. the photo shows "metadata failed").
    const onFailed = onFailedHook(job.half, job.row.type, job.ctx);
    const outcome = this.transitions.markFailure(job.lease, error, { onFailed });
    if (outcome === 'lost') {
      counters.discarded++;
      counters.notes.push(`job ${job.lease.id} attempt ${job.lease.attempt}: lease lost, failure not recorded`);
    } else if (outcome === 'failed') counters.failed++;
  }
}
