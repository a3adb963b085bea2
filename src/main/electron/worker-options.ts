import { workerV8Flags } from '../jobs/worker-process';

/**
 * How a job worker is started as an Electron utilityProcess. The V8 flags (the heap limit and
 * initial size) must travel in `--js-flags`: a utility process creates its V8 isolate before it
 * reads execArgv, so a bare `--max-old-space-size` there is ignored.
 */
export function utilityForkOptions(opts: { name: string; heapMb: number; env: NodeJS.ProcessEnv }) {
  return {
    serviceName: workerServiceName(opts.name),
    execArgv: [`--js-flags=${workerV8Flags(opts.heapMb).join(' ')}`],
    env: opts.env,
    stdio: ['ignore', 'inherit', 'pipe'] as ['ignore', 'inherit', 'pipe'],
  };
}

/** The name a worker's utilityProcess carries (and `child-process-gone` reports it by). */
export function workerServiceName(name: string): string {
  return `Circa worker ${name}`;
}

/** A line for the worker's stderr tail from utilityProcess's `error` event (a V8 fatal error). */
export function utilityErrorLine(type: string, location: string): string {
  return `utility process ${type}${location ? ` at ${location}` : ''}\n`;
}

/** What Electron's app `child-process-gone` event says about a utility process (the fields Circa reads). */
export interface ChildProcessGone {
  type: string;
  reason: string;
  exitCode: number;
  name?: string;
  serviceName?: string;
}

/** Chromium's exit code for a process that ran out of memory on Windows (kOomExceptionCode, 0xE0000008). */
export const WINDOWS_OOM_EXIT_CODE = 0xe0000008;

/**
 * The exit kind of a utilityProcess, from what Electron documents about its end:
 * - app `child-process-gone` with reason `oom`: Chromium ran the process out of memory. A V8 heap
 *   out of memory in a utility process goes through V8's OOM callback (not the `error` event) and
 *   Chromium terminates the process as out of memory; where it tells (Windows: the OOM exception
 *   code, which is also the exit code) this is the one signal that says so.
 * - utilityProcess `error` (a V8 fatal error): "heap out of memory" in its location is out of
 *   memory, any other fatal error a crash.
 * Neither: null (the exit code decides). The worker cannot tell us itself: a runaway synchronous
 * allocation never yields to a timer or a message before V8 gives up.
 */
export function utilityExitKind(
  fatal: { type: string; location: string } | null,
  gone: Pick<ChildProcessGone, 'reason' | 'exitCode'> | null = null,
  code: number | null = null,
): 'out_of_memory' | 'crashed' | null {
  if (gone?.reason === 'oom' || gone?.reason === 'memory-eviction') return 'out_of_memory';
  if (code !== null && code >>> 0 === WINDOWS_OOM_EXIT_CODE) return 'out_of_memory';
  if (gone && gone.exitCode >>> 0 === WINDOWS_OOM_EXIT_CODE) return 'out_of_memory';
  if (fatal) return /heap out of memory|allocation failed|heap limit/i.test(fatal.location) ? 'out_of_memory' : 'crashed';
  if (gone?.reason === 'crashed') return 'crashed';
  return null;
}

/** Whether a `child-process-gone` event is about the utility process started as `serviceName`. */
export function isGoneWorker(details: ChildProcessGone, serviceName: string): boolean {
  return details.type === 'Utility' && (details.name === serviceName || details.serviceName === serviceName);
}
