/**
 * Preparing an attempt (its payload parsed, its `load` run) and the errors it can get on main's
 * side: a payload or `load` that fails before the job starts, and the end of the process that
 * ran it. The attempt itself, and its states, are in ./attempt.ts.
 */
import type { AnyJobType } from '../../../shared/jobs/define';
import { serializeJobError, type SerializedJobError } from '../../../shared/jobs/errors';
import type { JobRegistry, MainHalf } from '../registry';
import type { JobRow, Lease } from '../store/rows';
import { parseStoredPayload } from '../type-hooks';
import type { SlotExit } from './worker-pool';
import { Attempt } from './attempt';
import { describeHeap } from './worker-heap';

export type { AbortReason } from './attempt';

export type Prepared =
  | { job: Attempt; input: unknown }
  | { job: Attempt; error: SerializedJobError }
  /** An asynchronous load: the input (or the error) once main has prepared it. */
  | { job: Attempt; pending: Promise<Loaded> };

export type Loaded = { job: Attempt; input: unknown } | { job: Attempt; error: SerializedJobError };

/** Validates the payload and runs the type's `load`; a job that cannot start gets a readable reason. */
export function prepareJob(row: JobRow, lease: Lease, registry: JobRegistry): Prepared {
  const registered = registry.get(row.type);
  const job = new Attempt(lease, row, registered?.definition as AnyJobType, registered?.half as MainHalf<AnyJobType>, {
    id: row.id,
    attempt: row.attempt,
    payload: undefined,
    subject: row.subject,
  });
  if (!registered) return { job, error: { kind: 'permanent', message: `This version of Circa has no job type "${row.type}"` } };
  const stored = parseStoredPayload(row, registered.definition);
  if ('error' in stored) return { job, error: { kind: 'permanent', message: stored.error } };
  job.ctx.payload = stored.payload;
  return loadInput(job);
}

/** Runs `load` for the job's current payload (also for each step of a checkpointed job). */
export function loadInput(job: Attempt): Prepared {
  let controller: AbortController | undefined;
  // Made only when a load looks at its signal: most loads are short synchronous reads.
  const main = {
    get signal() {
      return (controller ??= new AbortController()).signal;
    },
  };
  try {
    const input = job.half.load(job.ctx, main);
    if (!(input instanceof Promise)) return { job, input };
    job.load((controller ??= new AbortController()));
    const pending = input.then(
      (value): Loaded => ({ job, input: value }),
      (err: unknown): Loaded => ({ job, error: serializeJobError(err) }),
    );
    return { job, pending };
  } catch (err) {
    return { job, error: serializeJobError(err) };
  }
}

/** The failure of a job the runtime stopped while main was still preparing it. */
export function abortedWhileLoading(job: Attempt): SerializedJobError {
  if (job.abortReason === 'timeout') {
    return { kind: 'retryable', message: `Timed out after ${seconds(job.definition.policy.timeoutMs)}` };
  }
  return { kind: 'retryable', message: `Aborted before it started: ${job.abortReason ?? 'stopped'}` };
}

export interface ExitLimits {
  cancelGraceMs: number;
  unresponsiveMs: number;
}

/** The failure a job gets when the process running it ended. */
export function errorForExit(job: Attempt, exit: SlotExit, limits: ExitLimits): SerializedJobError {
  const reason = exit.kind === 'killed' ? exit.reason : null;
  if (job.abortReason === 'cancel' || reason === 'cancel') return { kind: 'permanent', message: 'Cancelled' };
  if (job.abortReason === 'timeout' || reason === 'timeout') {
    return {
      kind: 'retryable',
      message: `Timed out after ${seconds(job.definition.policy.timeoutMs)}; the handler did not stop within ${seconds(limits.cancelGraceMs)}, so its process was killed`,
    };
  }
  const tail = exit.exit.stderrTail.slice(-2000) || undefined;
  switch (exit.kind) {
    case 'killed':
      if (reason === 'protocol') {
        return {
          kind: 'retryable',
          message: 'The worker process sent a message Circa could not read, so it was replaced',
          retryAfterMs: 0,
        };
      }
      return {
        kind: 'retryable',
        message: `The worker process stopped answering for ${seconds(limits.unresponsiveMs)} and was killed`,
        retryAfterMs: 0,
      };
    case 'out_of_memory':
      return {
        kind: 'retryable',
        message: `The worker process ran out of memory (${describeHeap(exit.heap, exit.heapMb)}) while running this job`,
        stack: tail,
        retryAfterMs: 0,
      };
    case 'exited':
      return { kind: 'retryable', message: 'The worker process exited while running this job', stack: tail, retryAfterMs: 0 };
    default: {
      const how = exit.exit.signal ? `signal ${exit.exit.signal}` : `exit code ${exit.exit.code}`;
      const what = exit.kind === 'failed_to_launch' ? 'could not be started' : 'crashed';
      return {
        kind: 'retryable',
        message: `The worker process ${what} while running this job (${how})`,
        stack: tail,
        retryAfterMs: 0,
      };
    }
  }
}

/** "500 ms", "30 s": readable at any scale (a sub-second limit must not read "0 s"). */
export function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}
