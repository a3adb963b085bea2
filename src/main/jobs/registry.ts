/**
 * Main's half of each job type, typed by its shared definition (src/shared/jobs/types): `load`
 * gathers the worker's input with a short read, `apply` writes the output inside the transaction
 * that marks the job `success`. The registry pairs definitions with halves; the runtime asks it
 * by type name and knows nothing else about any type.
 */
import type { AnyJobType, InputOf, OutputOf, PayloadOf } from '../../shared/jobs/define';
import type { DiagnosticJobTypes, ProductJobTypes } from '../../shared/jobs/types';
import { diagnosticJobTypes, productJobTypes } from '../../shared/jobs/types';

export interface JobContext<P> {
  id: number;
  attempt: number;
  payload: P;
  subject: string | null;
}

/**
 * `apply` may ask to go on with a new payload (a checkpoint): the runtime stores it, fenced, in
 * the same transaction, and runs the next step at once in the same lease and attempt. A crash
 * resumes from the last checkpoint. Used by types whose policy says `checkpointed`.
 */
export interface Continuation<P> {
  summary: string | null;
  progress: number;
  continueWith: P;
}

/**
 * What an asynchronous `load` is given besides the job. An async load is main-side preparation
 * that must not block main's thread (a backup's snapshot, taken on a thread of its own); its
 * signal is aborted when the runtime stops the job before the worker has it (cancel, timeout,
 * shutdown). Only for types handed over one at a time with nothing queued behind (`handOff: 1`,
 * `prefetch: 0`), so the worker's order of jobs never differs from the runner's.
 */
export interface LoadContext {
  readonly signal: AbortSignal;
}

export interface MainHalf<D extends AnyJobType> {
  /** A short read in main that builds the worker's input (or a promise of it: see LoadContext). */
  load(job: JobContext<PayloadOf<D>>, main: LoadContext): InputOf<D> | Promise<InputOf<D>>;
  /** Runs inside the finalizing transaction; returns the one-line result summary (or a checkpoint). */
  apply(output: OutputOf<D>, job: JobContext<PayloadOf<D>>): string | null | Continuation<PayloadOf<D>>;
  /** Runs inside the transaction that marks the job `failed` for good (retries exhausted or permanent). */
  onFailed?(job: JobContext<PayloadOf<D>>, message: string): void;
}

/** A main half for every type of a set: leaving one out is a compile error. */
export type MainHalves<T extends Record<string, AnyJobType>> = { [K in keyof T]: MainHalf<T[K]> };

export interface RegisteredJobType {
  definition: AnyJobType;
  half: MainHalf<AnyJobType>;
}

export class JobRegistry {
  private readonly byName = new Map<string, RegisteredJobType>();

  constructor(product: MainHalves<ProductJobTypes>, diagnostics?: MainHalves<DiagnosticJobTypes>) {
    this.add(productJobTypes, product);
    if (diagnostics) this.add(diagnosticJobTypes, diagnostics);
  }

  private add<T extends Record<string, AnyJobType>>(definitions: T, halves: MainHalves<T>): void {
    for (const name of Object.keys(definitions)) {
      this.byName.set(name, { definition: definitions[name], half: halves[name] as MainHalf<AnyJobType> });
    }
  }

  get(type: string): RegisteredJobType | undefined {
    return this.byName.get(type);
  }

  definition(type: string): AnyJobType | undefined {
    return this.byName.get(type)?.definition;
  }

  /** Replaces a type's main half (tests that need an `apply` that misbehaves). */
  replaceHalf(type: string, half: MainHalf<AnyJobType>): void {
    const registered = this.byName.get(type);
    if (!registered) throw new Error(`no job type ${type}`);
    this.byName.set(type, { ...registered, half });
  }

  names(): string[] {
    return [...this.byName.keys()];
  }
}

/** Diagnostic types: load passes the payload through, apply records a marker so tests can see writes. */
export function diagnosticMainHalves(writeMarker: (key: string, value: string) => void): MainHalves<DiagnosticJobTypes> {
  const half = (type: string): MainHalf<AnyJobType> => ({
    load: (job) => job.payload,
    apply: (output, job) => {
      const key = (job.payload as { key?: string }).key;
      if (key) writeMarker(`diag.${type}.${key}`, JSON.stringify({ jobId: job.id, attempt: job.attempt, output }));
      return `${type} done`;
    },
  });
  return Object.fromEntries(Object.keys(diagnosticJobTypes).map((t) => [t, half(t)])) as MainHalves<DiagnosticJobTypes>;
}

/** Main's halves of the product's types: each feature room gives some (src/main/core/features.ts joins them). */
export type ProductHalves = MainHalves<ProductJobTypes>;
