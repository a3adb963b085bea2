/** The worker's half of a job type: a function of its input. It never opens the database. */
export interface RunContext {
  jobId: number;
  attempt: number;
  signal: AbortSignal;
  /** 0..1; throttled before it crosses the process boundary. */
  progress(fraction: number, message?: string): void;
}

export type RunHandler = (input: any, ctx: RunContext) => Promise<unknown>;
