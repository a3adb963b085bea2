/** Handlers for the diagnostic job types (see src/shared/jobs/diagnostic-specs.ts). */
import { PermanentJobError, RetryLaterError } from '../../shared/jobs/errors';
import type { RunHandler } from './types';

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

export const diagnosticHandlers: Record<string, RunHandler> = {
  'diag.noop': async () => ({ pid: process.pid }),

  'diag.sleep': async (input: { ms: number; log?: string }, ctx) => {
    // `log`: a file outside the database where each execution is recorded (exactly-once tests).
    if (input.log) (await import('node:fs')).appendFileSync(input.log, `start ${ctx.jobId} ${ctx.attempt} ${process.pid}\n`);
    await abortable(input.ms, ctx.signal, (elapsed) => ctx.progress(Math.min(1, elapsed / Math.max(1, input.ms))));
    if (input.log) (await import('node:fs')).appendFileSync(input.log, `end ${ctx.jobId} ${ctx.attempt} ${process.pid}\n`);
    return { pid: process.pid, slept: input.ms };
  },

  'diag.fail': async (input: { message: string; mode: 'retryable' | 'permanent' | 'retry_later' }) => {
    if (input.mode === 'permanent') throw new PermanentJobError(input.message);
    if (input.mode === 'retry_later') throw new RetryLaterError(input.message, 60_000);
    throw new Error(input.message);
  },

  'diag.crash': async (input: { mode: 'exit' | 'oom' }) => {
    if (input.mode === 'oom') {
      const hog: unknown[] = [];
      for (;;) hog.push(new Array(1_000_000).fill({ x: Math.random() }));
    }
    process.kill(process.pid, 'SIGKILL');
    return new Promise(() => {});
  },

  'diag.ignore_abort': async (input: { ms: number }) => {
    // Deliberately blocks the event loop and ignores its signal.
    const end = Date.now() + input.ms;
    while (Date.now() < end) {
      /* spin */
    }
    return {};
  },
};
