/** Calls across a process boundary return result objects; errors are data, never thrown across IPC. */
export const ERROR_CODES = [
  'invalid_input', // the request failed the contract's schema
  'unknown_call', // no such call in the contract
  'not_found',
  'conflict', // the request is valid but the current state forbids it
  'unavailable', // the library is busy/locked or the core is shutting down: try again
  'needs_confirmation', // valid, but looks like a mistake (e.g. importing a whole disk): ask, then call again confirmed
  'internal', // a bug: logged in main with its stack
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface CallError {
  code: ErrorCode;
  message: string;
  /** Zod issues for invalid_input: where and why. */
  issues?: { path: (string | number)[]; message: string }[];
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: CallError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = (code: ErrorCode, message: string, issues?: CallError['issues']): Result<never> => ({
  ok: false,
  error: issues ? { code, message, issues } : { code, message },
});

/** A failure a handler raises on purpose, carried to the caller as a typed error result. */
export class CallFailure extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** For invalid_input: which fields, and what is wrong with each. */
    readonly issues?: CallError['issues'],
  ) {
    super(message);
  }
}
