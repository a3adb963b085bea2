/** The worker's half of a job type: a function of its input, typed by the type's shared definition. It never opens the database. */
import type { z } from 'zod';
import type { AnyJobType, InputOf } from '../../shared/jobs/define';

export interface RunContext {
  jobId: number;
  attempt: number;
  signal: AbortSignal;
  /** 0..1; throttled before it crosses the process boundary. */
  progress(fraction: number, message?: string): void;
}

export type RunHandler<D extends AnyJobType = AnyJobType> = (input: InputOf<D>, ctx: RunContext) => Promise<z.input<D['output']>>;

/** A worker half for every type of a set: leaving one out is a compile error. */
export type WorkerHalves<T extends Record<string, AnyJobType>> = { [K in keyof T]: RunHandler<T[K]> };
