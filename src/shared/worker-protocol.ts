/**
 * Messages between main and a worker process (Electron utilityProcess or a forked Node child).
 * A worker runs one job at a time; main hands it jobs ahead (several at once for short ones) and
 * it works through them in order.
 *
 * The schemas are the protocol: each side parses what it receives before using it (main in
 * WorkerPool, the worker in src/worker/index.ts), so a process that speaks something else — a
 * bug, another version, a handler that corrupted its own process — is caught at the boundary and
 * never read as a job's result. The types are inferred from them.
 */
import { z } from 'zod';
import type { SerializedJobError } from './jobs/errors';

const jobRef = { jobId: z.number().int(), attempt: z.number().int() };

const serializedJobError = z.object({
  kind: z.enum(['retryable', 'permanent', 'retry_later']),
  message: z.string(),
  stack: z.string().optional(),
  retryAfterMs: z.number().optional(),
}) satisfies z.ZodType<SerializedJobError>;

/** The worker's heap as V8 reports it (used vs the limit it was started with), in MB. */
const heapReport = z.object({ usedMb: z.number(), limitMb: z.number() });

const jobAssignment = z.object({ ...jobRef, type: z.string(), input: z.unknown() });

export const mainToWorkerSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('ping'), seq: z.number() }),
  z.object({ t: z.literal('run'), jobs: z.array(jobAssignment) }),
  z.object({ t: z.literal('abort'), ...jobRef, reason: z.string() }),
  /** Give back a job handed over but not started (an idle worker will take it); answered by `revoked`. */
  z.object({ t: z.literal('revoke'), ...jobRef }),
  z.object({ t: z.literal('shutdown') }),
]);

/** `ms`: how long the handler ran, measured in the worker (main paces hand-offs by it). */
const jobResult = z.discriminatedUnion('ok', [
  z.object({ t: z.literal('result'), ...jobRef, ok: z.literal(true), output: z.unknown(), ms: z.number().optional() }),
  z.object({ t: z.literal('result'), ...jobRef, ok: z.literal(false), error: serializedJobError, ms: z.number().optional() }),
]);

export const workerToMainSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('ready'), pid: z.number(), types: z.array(z.string()) }),
  z.object({ t: z.literal('pong'), seq: z.number(), heap: heapReport.optional() }),
  /** `ok`: the job was still waiting and will not run here; false: it had already started. */
  z.object({ t: z.literal('revoked'), ...jobRef, ok: z.boolean() }),
  z.object({
    t: z.literal('progress'),
    ...jobRef,
    progress: z.number(),
    message: z.string().optional(),
    heap: heapReport.optional(),
  }),
  jobResult,
  /** Several results in one message: a worker working through a batch of short jobs sends them together. */
  z.object({ t: z.literal('results'), results: z.array(jobResult) }),
  /** The heap near its limit while a job runs (see src/worker/heap-report.ts): main keeps the last one. */
  z.object({ t: z.literal('heap'), ...heapReport.shape }),
]);

export type JobAssignment = z.infer<typeof jobAssignment>;
export type MainToWorker = z.infer<typeof mainToWorkerSchema>;
export type WorkerToMain = z.infer<typeof workerToMainSchema>;
export type JobResultMessage = z.infer<typeof jobResult>;
export type HeapReport = z.infer<typeof heapReport>;

/** A received message, parsed; `problem` says in a line what was wrong with one that is not. */
export function readMessage<T>(schema: z.ZodType<T>, raw: unknown): { ok: true; msg: T } | { ok: false; problem: string } {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, msg: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue?.path.map(String).join('.') || '(message)';
  return { ok: false, problem: `${where}: ${issue?.message ?? 'not a protocol message'}` };
}
