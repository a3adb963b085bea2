/** What a runner is given (RunnerOptions), what it reports (RunnerStats), and its modes. */
import type { JobRegistry } from '../registry';
import type { JobTransitions } from '../store/transitions';
import type { SpawnWorker } from '../worker-process';
import type { Logger } from '../../logger';
import { systemClock, type Clock } from '../clock';
import { silentLogger } from '../../logger';
import type { WorkerBudget } from '../../../shared/worker-budget';

export interface RunnerOptions {
  transitions: JobTransitions;
  registry: JobRegistry;
  spawn: SpawnWorker;
  concurrency: number;
  /** How long finished jobs are kept (the library's retention setting). */
  retentionMs: () => number;
  runnerId?: string;
  /** The most heap a worker gets, in MB (the workers' memory budget may give less: src/shared/worker-budget.ts). */
  heapMb?: number;
  /** The machine memory the workers' budget is taken from, in MB (default: os.totalmem(); tests inject one). */
  totalMemoryMb?: number;
  workerEnv?: Record<string, string>;
  leaseMs?: number;
  renewEveryMs?: number;
  sweepEveryMs?: number;
  pollEveryMs?: number;
  cancelGraceMs?: number;
  /** A busy worker that has not answered a ping for this long is killed and its job retried. */
  unresponsiveMs?: number;
  /** Stop claiming after this many jobs (headless `--max-jobs`, `--once`). */
  maxJobs?: number;
  /** Resolve `finished` as soon as nothing is claimable (headless `--once`, `--exit-when-idle`). */
  exitWhenIdle?: boolean;
  /** Claim only jobs of these types (`circa-worker backup` runs its backup and nothing else). */
  onlyTypes?: readonly string[];
  /** How often finished jobs are pruned (checked at the lease sweep). */
  pruneEveryMs?: number;
  paused?: boolean;
  log?: Logger;
  /** Time and timers (polls, renewals, sweeps, backoffs, time limits); tests pass one they advance. */
  clock?: Clock;
  /** Jobs whose rows this runner changed, told as it changes them (the listener coalesces). */
  onJobsChanged?(ids: number[]): void;
}

/** The options with every default filled in (what the runner and its parts read). */
export type ResolvedOptions = Required<
  Omit<RunnerOptions, 'maxJobs' | 'onJobsChanged' | 'runnerId' | 'workerEnv' | 'onlyTypes'>
> &
  Pick<RunnerOptions, 'maxJobs' | 'onJobsChanged' | 'onlyTypes'>;

export function withDefaults(opts: RunnerOptions): ResolvedOptions {
  return {
    heapMb: 1024,
    leaseMs: 30_000,
    renewEveryMs: 5_000,
    sweepEveryMs: 10_000,
    pollEveryMs: 1_000,
    cancelGraceMs: 5_000,
    unresponsiveMs: 20_000,
    exitWhenIdle: false,
    pruneEveryMs: 60 * 60_000,
    paused: false,
    log: silentLogger,
    clock: systemClock,
    ...opts,
  } as ResolvedOptions;
}

export type Mode = 'created' | 'running' | 'backing_off' | 'stopping' | 'stopped';
export const TRANSITIONS: Record<Mode, Mode[]> = {
  created: ['running', 'stopping'],
  running: ['backing_off', 'stopping'],
  backing_off: ['running', 'stopping'],
  stopping: ['stopped'],
  stopped: [],
};

export interface RunnerStats {
  runnerId: string;
  workersAlive: number;
  /** How many run: the worker count asked for, capped by the memory budget (see `memory`). */
  workersConfigured: number;
  /** Workers on their way (the app starting, a replacement after a crash): not an error. */
  workersStarting: number;
  /** Workers whose process could not be started (or died before it was ready). */
  workersFailed: number;
  paused: boolean;
  claimed: number;
  succeeded: number;
  failed: number;
  discarded: number;
  /** Jobs given back by a busy worker so an idle one could run them. */
  handedBack: number;
  machineryErrors: number;
  lastMachineryError: string | null;
  /** The workers' memory budget: how many it allows, and each one's heap. */
  memory: WorkerBudget;
}
