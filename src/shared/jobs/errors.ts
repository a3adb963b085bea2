/**
 * Errors a job handler can throw to steer the runtime. They cross the process boundary as
 * plain data (see `serializeJobError`), so the runtime decides by `kind`, never by `instanceof`.
 */

/** Bad input that no retry can fix (corrupt file, schema-violating AI reply): fail at once. */
export class PermanentJobError extends Error {
  override readonly name = 'PermanentJobError';
}

/**
 * Ask to be run again later without spending an attempt (e.g. HTTP 429 with Retry-After).
 * `retryAfterMs` is how long to wait before the job becomes claimable again.
 */
export class RetryLaterError extends Error {
  override readonly name = 'RetryLaterError';
  constructor(
    message: string,
    readonly retryAfterMs: number,
  ) {
    super(message);
  }
}

export type JobErrorKind = 'retryable' | 'permanent' | 'retry_later';

export interface SerializedJobError {
  kind: JobErrorKind;
  message: string;
  stack?: string;
  retryAfterMs?: number;
}

export function serializeJobError(err: unknown): SerializedJobError {
  if (err instanceof RetryLaterError) {
    return { kind: 'retry_later', message: err.message, stack: err.stack, retryAfterMs: err.retryAfterMs };
  }
  if (err instanceof PermanentJobError) {
    return { kind: 'permanent', message: err.message, stack: err.stack };
  }
  if (err instanceof Error) return { kind: 'retryable', message: err.message || err.name, stack: err.stack };
  return { kind: 'retryable', message: String(err) };
}
