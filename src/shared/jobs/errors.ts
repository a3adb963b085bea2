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

/**
 * The one classification of a thrown error, wherever a job's code runs (a worker's handler, main's
 * load or apply). By name as well as by class: an error from another realm or a copy of this
 * module is still recognised. `context` prefixes the message ("Could not save the result").
 */
export function serializeJobError(err: unknown, context?: string): SerializedJobError {
  const e = err as { name?: unknown; message?: unknown; stack?: unknown; retryAfterMs?: unknown } | null;
  const message = (text: string) => (context ? `${context}: ${text}` : text);
  const stack = withCauses(typeof e?.stack === 'string' ? e.stack : undefined, err);
  if (err instanceof RetryLaterError || (e?.name === 'RetryLaterError' && typeof e.retryAfterMs === 'number')) {
    return { kind: 'retry_later', message: message(String(e!.message)), stack, retryAfterMs: e!.retryAfterMs as number };
  }
  if (err instanceof PermanentJobError || e?.name === 'PermanentJobError') {
    return { kind: 'permanent', message: message(String(e!.message)), stack };
  }
  if (err instanceof Error) return { kind: 'retryable', message: message(err.message || err.name), stack };
  return { kind: 'retryable', message: message(String(err)) };
}

/**
 * The technical text of an error's causes (a decoder's own words, a system error), before its
 * stack: the message stays plain for the archivist, and what a developer needs is kept with the
 * job's technical details.
 */
function withCauses(stack: string | undefined, err: unknown): string | undefined {
  const causes: string[] = [];
  let cause = (err as { cause?: unknown } | null)?.cause;
  for (let depth = 0; cause != null && depth < 4; depth++) {
    causes.push(`Caused by: ${cause instanceof Error ? cause.message || cause.name : String(cause)}`);
    cause = (cause as { cause?: unknown }).cause;
  }
  if (!causes.length) return stack;
  return [causes.join('\n'), stack].filter(Boolean).join('\n');
}
