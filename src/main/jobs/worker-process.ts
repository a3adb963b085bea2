/**
 * A worker process as the runtime sees it, independent of how it was started: an Electron
 * utilityProcess in the app (src/main/electron/utility-worker.ts) or a forked Node child
 * elsewhere (./fork-worker.ts). Each adapter reports how its process ended as a typed kind, so
 * the runtime never reads a process's output to find out.
 */
import type { MainToWorker } from '../../shared/worker-protocol';

/** How a worker process ended, as its adapter saw it (a kill the runtime asked for is added by the pool). */
export type WorkerExitKind = 'exited' | 'crashed' | 'out_of_memory' | 'failed_to_launch';

export interface WorkerExit {
  kind: WorkerExitKind;
  code: number | null;
  signal: string | null;
  /** The last lines the process wrote to stderr: kept for the failed job's details, never parsed by the runtime. */
  stderrTail: string;
}

export interface WorkerProcess {
  readonly pid: number | undefined;
  send(msg: MainToWorker): void;
  onMessage(cb: (msg: unknown) => void): void;
  onExit(cb: (exit: WorkerExit) => void): void;
  kill(): void;
}

export interface SpawnOptions {
  /** V8 old-space limit for the process, in MB: a runaway handler dies alone, with a readable error. */
  heapMb: number;
  name: string;
  env: Record<string, string>;
}

export type SpawnWorker = (opts: SpawnOptions) => WorkerProcess;

/** Old-space size a worker starts with (no more than half its limit), in MB. */
const INITIAL_OLD_SPACE_MB = 128;

/**
 * The V8 flags of a worker process, for either adapter.
 *
 * `--max-old-space-size`: the heap limit (a runaway handler dies alone, with a readable error).
 * `--initial-old-space-size`: with a limit of 1 GB, V8 starts with a small old generation and
 * ties its full-GC trigger to it; a metadata job frees a few MB of buffers (the file's bytes,
 * the decoded pixels, the luma tables), and that external memory alone then set off a full
 * mark-compact every ~8 photos: 201 in a 1,600-photo run, 29.0 ms of CPU per photo. Starting at
 * 128 MB: none, 21.8 ms per photo. Resident memory does not grow for it (the heap holds ~20 MB).
 */
export function workerV8Flags(heapMb: number): string[] {
  const limit = Math.floor(heapMb);
  const initial = Math.min(INITIAL_OLD_SPACE_MB, Math.floor(limit / 2));
  return [`--max-old-space-size=${limit}`, `--initial-old-space-size=${initial}`];
}

/**
 * A Node or Electron child's end, by its exit code and signal. V8 ends a process that hits its
 * heap limit with abort() (SIGABRT, or exit code 134 where the signal is not reported), after
 * printing its "heap out of memory" report: that report is what tells an out-of-memory abort from
 * another fatal error, so only an adapter that sees both may say `out_of_memory`.
 */
export function exitKindOf(code: number | null, signal: string | null, stderrTail: string): WorkerExitKind {
  if (code === 0 && !signal) return 'exited';
  const aborted = signal === 'SIGABRT' || code === 134;
  if (aborted && /heap out of memory|Reached heap limit/i.test(stderrTail)) return 'out_of_memory';
  return 'crashed';
}

/** Keeps the tail of a stream for crash reports without holding everything it ever wrote. */
export class TailBuffer {
  private text = '';
  constructor(private readonly max = 4000) {}
  push(chunk: Buffer | string): void {
    this.text = (this.text + chunk.toString()).slice(-this.max);
  }
  toString(): string {
    return this.text;
  }
}
