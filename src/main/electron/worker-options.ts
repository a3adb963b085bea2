import { workerV8Flags } from '../jobs/worker-process';

/**
 * How a job worker is started as an Electron utilityProcess. The V8 flags (the heap limit and
 * initial size) must travel in `--js-flags`: a utility process creates its V8 isolate before it
 * reads execArgv, so a bare `--max-old-space-size` there is ignored.
 */
export function utilityForkOptions(opts: { name: string; heapMb: number; env: NodeJS.ProcessEnv }) {
  return {
    serviceName: `Circa worker ${opts.name}`,
    execArgv: [`--js-flags=${workerV8Flags(opts.heapMb).join(' ')}`],
    env: opts.env,
    stdio: ['ignore', 'inherit', 'pipe'] as ['ignore', 'inherit', 'pipe'],
  };
}

/** A line for the worker's stderr tail from utilityProcess's `error` event (a V8 fatal error). */
export function utilityErrorLine(type: string, location: string): string {
  return `utility process ${type}${location ? ` at ${location}` : ''}\n`;
}

/**
 * The exit kind a utilityProcess's `error` event decides: V8's fatal "heap out of memory" (its
 * location names the failed allocation) is out of memory, any other fatal error a crash; no
 * event, no say (the exit code decides).
 */
export function utilityExitKind(fatal: { type: string; location: string } | null): 'out_of_memory' | 'crashed' | null {
  if (!fatal) return null;
  return /heap out of memory|allocation failed|heap limit/i.test(fatal.location) ? 'out_of_memory' : 'crashed';
}
