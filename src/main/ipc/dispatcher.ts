/**
 * Turns an untrusted (call name, input) pair into a typed result. Nothing a renderer sends is
 * trusted: unknown calls and inputs that fail the contract's schema come back as typed errors,
 * and no handler failure escapes as a crash or an unhandled rejection.
 */
import { calls, isCallName, type CallName, type Calls } from '../../shared/contract';
import { CallFailure, fail, ok, type Result } from '../../shared/result';
import type { z } from 'zod';
import { isMachineryError, describeMachineryError } from '../jobs/machinery';
import type { Logger } from '../logger';

export type Handlers = {
  [N in CallName]: (input: z.output<Calls[N]['input']>) => z.input<Calls[N]['output']> | Promise<z.input<Calls[N]['output']>>;
};

export type Dispatch = (name: unknown, input: unknown) => Promise<Result<unknown>>;

export function createDispatcher(
  handlers: Handlers,
  opts: {
    validateOutput: boolean;
    log: Logger;
    /** Told of every request as it arrives (user-activity.ts). */
    onRequest?: () => void;
  },
): Dispatch {
  return async (name, rawInput) => {
    opts.onRequest?.();
    if (!isCallName(name)) return fail('unknown_call', `Unknown call ${JSON.stringify(String(name)).slice(0, 120)}`);
    const def = calls[name];
    const parsed = def.input.safeParse(rawInput ?? {});
    if (!parsed.success) {
      return fail(
        'invalid_input',
        `Invalid input for ${name}`,
        parsed.error.issues.map((i) => ({
          path: i.path.filter((p): p is string | number => typeof p !== 'symbol'),
          message: i.message,
        })),
      );
    }
    try {
      const value = await (handlers[name] as (i: unknown) => unknown)(parsed.data);
      if (opts.validateOutput) {
        const out = def.output.safeParse(value);
        if (!out.success) {
          opts.log.error(`output of ${name} violates the contract: ${out.error.message}`);
          return fail('internal', `Circa produced an invalid answer for ${name}; this is a bug`);
        }
        return ok(out.data);
      }
      return ok(value);
    } catch (err) {
      if (err instanceof CallFailure) return fail(err.code, err.message, err.issues);
      if (isMachineryError(err)) return fail('unavailable', `The library is unavailable: ${describeMachineryError(err)}`);
      opts.log.error(`${name} failed: ${(err as Error)?.stack ?? String(err)}`);
      return fail('internal', `${name} failed: ${(err as Error)?.message ?? String(err)}`);
    }
  };
}
