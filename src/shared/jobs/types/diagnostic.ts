/**
 * Diagnostic job types for tests and benchmarks. They are registered only when the runtime is
 * started with diagnostics on (CIRCA_DIAGNOSTIC_JOBS=1 or the test/bench harness), never in a
 * normal run, so a user can never enqueue them. Each passes its payload through as its input.
 */
import { z } from 'zod';
import { defineJobType, type JobPolicy } from '../define';

const key = z.string().max(200).optional();
const byKey = (p: { key?: string }) => p.key ?? null;
const oneAtATime: Pick<JobPolicy, 'handOff' | 'prefetch'> = { handOff: 1, prefetch: 0 };

const noopPayload = z.object({ key }).strict();

/** Does nothing (throughput benchmarks); as `diag.noop`, with the policy of a real type. */
const noop = <const T extends string>(type: T, policy: Pick<JobPolicy, 'handOff' | 'prefetch'>, description: string) =>
  defineJobType({
    type,
    description,
    payload: noopPayload,
    input: noopPayload,
    output: z.object({ pid: z.number(), startedAt: z.number().optional() }),
    subject: byKey,
    policy: { maxRetries: 3, timeoutMs: 30_000, ...policy },
    limits: {},
    ui: { label: type, startable: true },
    diagnostic: true,
  });

const sleepPayload = z
  .object({ ms: z.number().int().min(0).max(600_000).default(4000), key, log: z.string().optional() })
  .strict();

const sleep = <const T extends string>(
  type: T,
  timeoutMs: number,
  maxRetries: number,
  description: string,
  extra: Partial<JobPolicy> = {},
) =>
  defineJobType({
    type,
    description,
    payload: sleepPayload,
    input: sleepPayload,
    output: z.object({ pid: z.number(), slept: z.number() }),
    subject: byKey,
    policy: { maxRetries, timeoutMs, ...oneAtATime, ...extra },
    limits: {},
    ui: { label: type, startable: true },
    diagnostic: true,
  });

const failPayload = z
  .object({
    message: z.string().default('The diagnostic handler failed on purpose'),
    mode: z.enum(['retryable', 'permanent', 'retry_later']).default('permanent'),
    key,
  })
  .strict();
const crashPayload = z.object({ mode: z.enum(['exit', 'oom', 'oom_yielding']).default('exit'), key }).strict();
const ignoreAbortPayload = z.object({ ms: z.number().int().min(0).max(600_000), key, log: z.string().optional() }).strict();

export const diagnosticJobTypes = {
  /** Best case: 64 handed over at once (what no real type does; benchmarks label it so). */
  'diag.noop': noop('diag.noop', { handOff: 64, prefetch: 64 }, 'Does nothing (throughput benchmark, best-case hand-off).'),
  /** The policy of `ocr`, `ai_analysis`: handed over one at a time, two queued behind the one running. */
  'diag.noop_single': noop('diag.noop_single', { handOff: 1, prefetch: 2 }, 'Does nothing, handed over one at a time.'),
  /** The policy of `metadata`. */
  'diag.noop_batch': noop('diag.noop_batch', { handOff: 8, prefetch: 8 }, 'Does nothing, with the metadata hand-off.'),
  'diag.sleep': sleep(
    'diag.sleep',
    60_000,
    3,
    'Sleeps (honouring abort), reporting progress; with `key`, apply writes a marker row.',
  ),
  /** Like diag.sleep (same handler, same payload), with a 500 ms timeout: for timeout tests. */
  'diag.slow': sleep('diag.slow', 500, 1, 'Like diag.sleep, with a 500 ms timeout (timeout tests).'),
  /** Like diag.sleep, at most one at a time in a runner (the concurrency policy). */
  'diag.exclusive': sleep('diag.exclusive', 60_000, 1, 'Like diag.sleep, one at a time per runner.', { concurrency: 1 }),
  'diag.fail': defineJobType({
    type: 'diag.fail',
    description: 'Throws (retryable or permanent, or asks to retry later).',
    payload: failPayload,
    input: failPayload,
    output: z.object({}),
    subject: byKey,
    policy: { maxRetries: 2, timeoutMs: 30_000, ...oneAtATime },
    limits: {},
    ui: { label: 'diag.fail', startable: true },
    diagnostic: true,
  }),
  'diag.crash': defineJobType({
    type: 'diag.crash',
    description:
      'Kills its own worker process mid-job (or exhausts its heap: mode=oom in one synchronous loop, oom_yielding between turns of the event loop).',
    payload: crashPayload,
    input: crashPayload,
    output: z.object({}),
    subject: byKey,
    policy: { maxRetries: 1, timeoutMs: 60_000, ...oneAtATime },
    limits: {},
    ui: { label: 'diag.crash' },
    diagnostic: true,
  }),
  'diag.ignore_abort': defineJobType({
    type: 'diag.ignore_abort',
    description: 'Busy-waits ignoring its AbortSignal (tests the kill-after-grace path).',
    payload: ignoreAbortPayload,
    input: ignoreAbortPayload,
    output: z.object({}),
    subject: byKey,
    policy: { maxRetries: 1, timeoutMs: 60_000, ...oneAtATime },
    limits: {},
    ui: { label: 'diag.ignore_abort' },
    diagnostic: true,
  }),
};

export type DiagnosticJobTypes = typeof diagnosticJobTypes;
export type DiagnosticJobTypeName = keyof DiagnosticJobTypes;
