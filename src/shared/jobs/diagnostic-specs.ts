/**
 * Diagnostic job types for tests and benchmarks. They are registered only when the runtime is
 * started with diagnostics on (CIRCA_DIAGNOSTIC_JOBS=1 or the test/bench harness), never in a
 * normal run, so a user can never enqueue them.
 */
import { z } from 'zod';
import { defineJobSpec, type JobSpec } from './spec';

const key = z.string().max(200).optional();

export const diagnosticSpecs: Record<string, JobSpec<any, any>> = {
  'diag.noop': defineJobSpec({
    type: 'diag.noop',
    description: 'Does nothing (throughput benchmark).',
    payload: z.object({ key }).strict(),
    output: z.object({ pid: z.number(), startedAt: z.number().optional() }),
    subject: (p) => p.key ?? null,
    maxRetries: 3,
    timeoutMs: 30_000,
    batchSize: 64,
    diagnostic: true,
  }),
  'diag.sleep': defineJobSpec({
    type: 'diag.sleep',
    description: 'Sleeps (honouring abort), reporting progress; with `key`, apply writes a marker row.',
    payload: z.object({ ms: z.number().int().min(0).max(600_000).default(4000), key, log: z.string().optional() }).strict(),
    output: z.object({ pid: z.number(), slept: z.number() }),
    subject: (p) => p.key ?? null,
    maxRetries: 3,
    timeoutMs: 60_000,
    batchSize: 1,
    diagnostic: true,
  }),

  'diag.fail': defineJobSpec({
    type: 'diag.fail',
    description: 'Throws (retryable or permanent, or asks to retry later).',
    payload: z
      .object({
        message: z.string().default('The diagnostic handler failed on purpose'),
        mode: z.enum(['retryable', 'permanent', 'retry_later']).default('permanent'),
        key,
      })
      .strict(),
    output: z.object({}),
    subject: (p) => p.key ?? null,
    maxRetries: 2,
    timeoutMs: 30_000,
    batchSize: 1,
    diagnostic: true,
  }),
  'diag.crash': defineJobSpec({
    type: 'diag.crash',
    description: 'Kills its own worker process mid-job (or exhausts its heap with mode=oom).',
    payload: z.object({ mode: z.enum(['exit', 'oom']).default('exit'), key }).strict(),
    output: z.object({}),
    subject: (p) => p.key ?? null,
    maxRetries: 1,
    timeoutMs: 60_000,
    batchSize: 1,
    diagnostic: true,
  }),
  'diag.ignore_abort': defineJobSpec({
    type: 'diag.ignore_abort',
    description: 'Busy-waits ignoring its AbortSignal (tests the kill-after-grace path).',
    payload: z.object({ ms: z.number().int().min(0).max(600_000), key }).strict(),
    output: z.object({}),
    subject: (p) => p.key ?? null,
    maxRetries: 1,
    timeoutMs: 60_000,
    batchSize: 1,
    diagnostic: true,
  }),
};

/** Like diag.sleep (same handler, same payload), with a 500 ms timeout: for timeout tests. */
diagnosticSpecs['diag.slow'] = {
  ...diagnosticSpecs['diag.sleep'],
  type: 'diag.slow',
  description: 'Like diag.sleep, with a 500 ms timeout (timeout tests).',
  maxRetries: 1,
  timeoutMs: 500,
};
