/**
 * What the runtime calls of a job type in main (`apply`, `onFailed`), and the one place that
 * decides what an error from such a hook means. A machinery error (the database busy, the disk
 * full: see ./machinery.ts) is the environment failing: it passes through untouched and the whole
 * transaction is retried later. Anything else is that job's own fault: it becomes a TypeHookError,
 * and that job alone fails with the reason while the rest of the batch commits.
 */
import { invalidPayloadMessage, type AnyJobType } from '../../shared/jobs/define';
import { serializeJobError } from '../../shared/jobs/errors';
import { isMachineryError } from './machinery';
import type { JobContext, MainHalf } from './registry';
import type { JobRow } from './store/rows';

export type HookName = 'apply' | 'onFailed';

/** A type's hook threw something other than a machinery error. */
export class TypeHookError extends Error {
  override readonly name = 'TypeHookError';
  constructor(
    readonly hook: HookName,
    readonly jobType: string,
    override readonly cause: unknown,
  ) {
    super(`The ${jobType} job's ${hook} failed: ${serializeJobError(cause).message}`);
  }
}

/** Calls a type's hook and classifies what it throws (see the header). */
export function callHook<T>(hook: HookName, jobType: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (isMachineryError(err) || err instanceof TypeHookError) throw err;
    throw new TypeHookError(hook, jobType, err);
  }
}

/**
 * The type's bookkeeping for a final failure (e.g. the photo shows "metadata failed") as a call
 * that classifies its errors, or undefined when the type has none or the payload never parsed.
 */
export function onFailedHook(
  half: MainHalf<AnyJobType> | undefined,
  jobType: string,
  ctx: JobContext<unknown>,
): ((message: string) => void) | undefined {
  const onFailed = half?.onFailed;
  if (!onFailed || ctx.payload === undefined) return undefined;
  return (message) => callHook('onFailed', jobType, () => onFailed.call(half, ctx, message));
}

/**
 * A stored payload, parsed by its type's schema before any hook sees it: the row may have been
 * written by another version of Circa, or by hand.
 */
export function parseStoredPayload(
  row: Pick<JobRow, 'type' | 'payload'>,
  definition: AnyJobType,
): { payload: unknown } | { error: string } {
  let json: unknown;
  try {
    json = JSON.parse(row.payload);
  } catch {
    return { error: 'The job payload is not valid JSON' };
  }
  const parsed = definition.payload.safeParse(json);
  return parsed.success ? { payload: parsed.data } : { error: invalidPayloadMessage(row.type, parsed.error.issues) };
}
