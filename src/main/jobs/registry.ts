/**
 * Main's half of each job type: `load` gathers the worker's input with a short read, `apply`
 * writes the output inside the transaction that marks the job `success`. The worker's half
 * (`run`) is registered in src/worker/handlers; the shared spec (schemas, policy) ties them.
 */
import type { JobSpec } from '../../shared/jobs/spec';
import { productSpecs } from '../../shared/jobs/specs';
import { diagnosticSpecs } from '../../shared/jobs/diagnostic-specs';
import type { JobRow } from './store';

export interface JobContext<P> {
  id: number;
  attempt: number;
  payload: P;
  subject: string | null;
}

/**
 * `apply` may ask to go on with a new payload (a checkpoint): the runtime stores it, fenced, in
 * the same transaction, and runs the next step at once in the same lease and attempt. A crash
 * resumes from the last checkpoint. Used by jobs that must keep each transaction short.
 */
export interface Continuation<P> {
  summary: string | null;
  progress: number;
  continueWith: P;
}

export interface MainJobType<P = any, I = any, O = any> {
  spec: JobSpec<P, O>;
  load(job: JobContext<P>, row: JobRow): I;
  /** Runs inside the finalizing transaction; returns the one-line result summary. */
  apply(output: O, job: JobContext<P>): string | null | Continuation<P>;
  /** The type may return a Continuation from `apply`: its worker is kept for the next step. */
  mayContinue?: boolean;
  /** Runs inside the transaction that marks the job `failed` for good (retries exhausted or permanent). */
  onFailed?(job: JobContext<P>, message: string): void;
}

export class JobRegistry {
  private readonly specs = new Map<string, JobSpec<any, any>>();
  private readonly types = new Map<string, MainJobType>();

  constructor(opts: { diagnostics: boolean }) {
    for (const spec of Object.values(productSpecs)) this.specs.set(spec.type, spec);
    if (opts.diagnostics) for (const spec of Object.values(diagnosticSpecs)) this.specs.set(spec.type, spec);
  }

  register(type: MainJobType): this {
    if (!this.specs.has(type.spec.type)) this.specs.set(type.spec.type, type.spec);
    this.types.set(type.spec.type, type);
    return this;
  }

  spec(type: string): JobSpec<any, any> | undefined {
    return this.specs.get(type);
  }

  handler(type: string): MainJobType | undefined {
    return this.types.get(type);
  }

  knownTypes(): string[] {
    return [...this.specs.keys()];
  }
}

/** Diagnostic types: load passes the payload through, apply records a marker so tests can see writes. */
export function diagnosticMainTypes(writeMarker: (key: string, value: string) => void): MainJobType[] {
  return Object.values(diagnosticSpecs).map((spec) => ({
    spec,
    load: (job) => job.payload,
    apply: (output: Record<string, unknown>, job) => {
      const key = (job.payload as { key?: string }).key;
      if (key) writeMarker(`diag.${spec.type}.${key}`, JSON.stringify({ jobId: job.id, attempt: job.attempt, output }));
      return `${spec.type} done`;
    },
  }));
}
