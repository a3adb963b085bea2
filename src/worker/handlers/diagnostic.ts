/** Handlers for the diagnostic job types (see src/shared/jobs/types/diagnostic.ts). */
import fs from 'node:fs';
import { PermanentJobError, RetryLaterError } from '../../shared/jobs/errors';
import type { DiagnosticJobTypes } from '../../shared/jobs/types';
import type { InputOf } from '../../shared/jobs/define';
import type { RunContext, WorkerHalves } from './types';

function abortable(ms: number, signal: AbortSignal, onTick?: (elapsed: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const started = Date.now();
    const tick = onTick ? setInterval(() => onTick(Date.now() - started), 50) : undefined;
    const t = setTimeout(() => {
      clearInterval(tick);
      resolve();
    }, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(t);
      clearInterval(tick);
      reject(signal.reason);
    });
  });
}

/**
 * diag.sleep: sleeps `ms`, honouring its signal and reporting progress. `log`: a file outside the
 * database where each execution is recorded (exactly-once tests); `{pid}` in it is replaced by the
 * worker's pid, so each process writes its own file.
 */
function logLine(file: string | undefined, kind: 'start' | 'end', ctx: RunContext): void {
  if (file)
    fs.appendFileSync(file.replaceAll('{pid}', String(process.pid)), `${kind} ${ctx.jobId} ${ctx.attempt} ${process.pid}\n`);
}

const sleepHandler = async (input: InputOf<DiagnosticJobTypes['diag.sleep']>, ctx: RunContext) => {
  logLine(input.log, 'start', ctx);
  await abortable(input.ms, ctx.signal, (elapsed) => ctx.progress(Math.min(1, elapsed / Math.max(1, input.ms))));
  logLine(input.log, 'end', ctx);
  return { pid: process.pid, slept: input.ms };
};

// `startedAt`: wall-clock ms (sub-ms precision) when the handler began, for start-latency benchmarks.
const noop = async () => ({ pid: process.pid, startedAt: performance.timeOrigin + performance.now() });

export const diagnosticHandlers: WorkerHalves<DiagnosticJobTypes> = {
  'diag.noop': noop,
  'diag.noop_single': noop,
  'diag.noop_batch': noop,

  'diag.sleep': sleepHandler,

  // Same as diag.sleep; its spec has a short timeout (timeout tests).
  'diag.slow': sleepHandler,
  'diag.exclusive': sleepHandler,

  'diag.fail': async (input) => {
    if (input.mode === 'permanent') throw new PermanentJobError(input.message);
    if (input.mode === 'retry_later') throw new RetryLaterError(input.message, 60_000);
    throw new Error(input.message);
  },

  'diag.crash': async (input) => {
    if (input.mode === 'oom') {
      const hog: unknown[] = [];
      for (;;) hog.push(new Array(1_000_000).fill({ x: Math.random() }));
    }
    if (input.mode === 'oom_yielding') {
      // As a handler that awaits between allocations (file reads, decodes) runs out of memory.
      const hog: unknown[] = [];
      for (;;) {
        hog.push(new Array(100_000).fill({ x: Math.random() }));
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    process.kill(process.pid, 'SIGKILL');
    return new Promise(() => {});
  },

  'diag.ignore_abort': async (input, ctx) => {
    logLine(input.log, 'start', ctx);
    // Deliberately blocks the event loop and ignores its signal.
    const end = Date.now() + input.ms;
    while (Date.now() < end) {
      /* spin */
    }
    return {};
  },
};
