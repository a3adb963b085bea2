/**
 * A job type's contract, shared by main (load/apply) and the worker (run): its payload and output
 * schemas and its policy. Main validates the payload at enqueue and the output before apply, so
 * neither the renderer nor a worker process is trusted.
 */
import type { z } from 'zod';

export interface JobPolicy {
  /** Retryable failures allowed before the job lands in `failed`. */
  maxRetries: number;
  /** Wall-clock limit for one attempt in a worker; past it the attempt is aborted and retried. */
  timeoutMs: number;
  /** How many queued jobs of this type one worker may be handed at once (they still run one at a time). */
  batchSize: number;
}

export interface JobSpec<P = unknown, O = unknown> extends JobPolicy {
  type: string;
  payload: z.ZodType<P>;
  output: z.ZodType<O>;
  /** What the job is about, for idempotency ("at most one active job per type+subject"); null = no dedupe. */
  subject(payload: P): string | null;
  /** Diagnostic types exist only when the runtime is started with diagnostics on (tests, benchmarks). */
  diagnostic?: boolean;
  /** One line for the README and the Jobs page. */
  description: string;
}

export function defineJobSpec<P, O>(spec: JobSpec<P, O>): JobSpec<P, O> {
  return spec;
}
