/**
 * Messages between main and a worker process (Electron utilityProcess or a forked Node child).
 * A worker runs one job at a time; main may hand it a batch, which it works through in order.
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
  | { t: 'shutdown' };

export type WorkerToMain =
  | { t: 'ready'; pid: number; types: string[] }
  | { t: 'pong'; seq: number }
  | { t: 'started'; jobId: number; attempt: number; at: number }
  | { t: 'progress'; jobId: number; attempt: number; progress: number; message?: string }
  | { t: 'result'; jobId: number; attempt: number; ok: true; output: unknown }
  | { t: 'result'; jobId: number; attempt: number; ok: false; error: SerializedJobError }
  /** Several results in one message: a worker working through a batch of short jobs sends them together. */
  | { t: 'results'; results: JobResultMessage[] };

export type JobResultMessage =
  | { t: 'result'; jobId: number; attempt: number; ok: true; output: unknown }
  | { t: 'result'; jobId: number; attempt: number; ok: false; error: SerializedJobError };
