/**
 * Messages between main and a worker process (Electron utilityProcess or a forked Node child).
 * A worker runs one job at a time; main hands it jobs ahead (several at once for short ones) and
 * it works through them in order.
 */
import type { SerializedJobError } from './jobs/errors';

export interface JobAssignment {
  jobId: number;
  attempt: number;
  type: string;
  input: unknown;
}

export type MainToWorker =
  | { t: 'ping'; seq: number }
  | { t: 'run'; jobs: JobAssignment[] }
  | { t: 'abort'; jobId: number; attempt: number; reason: string }
  /** Give back a job handed over but not started (an idle worker will take it); answered by `revoked`. */
  | { t: 'revoke'; jobId: number; attempt: number }
  | { t: 'shutdown' };

export type WorkerToMain =
  | { t: 'ready'; pid: number; types: string[] }
  | { t: 'pong'; seq: number }
  /** `ok`: the job was still waiting and will not run here; false: it had already started. */
  | { t: 'revoked'; jobId: number; attempt: number; ok: boolean }
  | { t: 'progress'; jobId: number; attempt: number; progress: number; message?: string }
  | JobResultMessage
  /** Several results in one message: a worker working through a batch of short jobs sends them together. */
  | { t: 'results'; results: JobResultMessage[] };

/** `ms`: how long the handler ran, measured in the worker (main paces hand-offs by it). */
export type JobResultMessage =
  | { t: 'result'; jobId: number; attempt: number; ok: true; output: unknown; ms?: number }
  | { t: 'result'; jobId: number; attempt: number; ok: false; error: SerializedJobError; ms?: number };
