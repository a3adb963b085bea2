/**
 * A worker process as the runtime sees it, independent of how it was started: an Electron
 * utilityProcess in the app (src/main/electron/utility-worker.ts) or a forked Node child
 * elsewhere (./fork-worker.ts).
 */
import type { MainToWorker } from '../../shared/worker-protocol';

export interface WorkerExit {
  code: number | null;
  signal: string | null;
  /** The last lines the process wrote to stderr (V8's out-of-memory report lands here). */
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
