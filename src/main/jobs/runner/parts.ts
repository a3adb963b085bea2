/**
 * A runner's parts, built and joined in one place, so runner.ts can read as the life of one job.
 * Each part talks to the runner through one interface and one typed event: the lease keeper
 * through LeaseHolder / LeaseEvent, the worker queues through WorkerQueuesHolder / WorkerEvent,
 * and the worker pool through one PoolEvent routed below (a process's messages and exit to the
 * queues, which know its jobs; its readiness and launch failures on to the runner). No part calls another behind the runner's back except
 * the queues, which own the pool's slots.
 */
import { Completer } from './completer';
import { Housekeeping } from './housekeeping';
import { LeaseKeeper, type LeaseHolder } from './lease-keeper';
import { WorkerPool } from './worker-pool';
import { WorkerQueues, type WorkerQueuesHolder } from './worker-queues';
import { JobPace } from './pace';
import { MachineryBackoff } from './machinery-backoff';
import { CycleBudget } from './cycle-budget';
import type { ResolvedOptions, RunnerOptions } from './options';

export interface RunnerParts {
  /** Commits outcomes and claims in one transaction. */
  completer: Completer;
  /** The transactions of lease upkeep (renewal, sweep, orphans, pruning). */
  housekeeping: Housekeeping;
  /** Lease upkeep's timers (renewal, sweep, pruning). */
  leases: LeaseKeeper;
  /** Worker processes: spawned, pinged, replaced, killed. */
  pool: WorkerPool;
  /** The jobs each worker holds, and how they arrive and leave. */
  workers: WorkerQueues;
  /** How long each type's jobs take, and so how far ahead workers are handed them. */
  pace: JobPace;
  /** How many outcomes and claims one cycle may take on. */
  cycleBudget: CycleBudget;
  /** The wait after a machinery error. */
  backoff: MachineryBackoff;
}

export function buildParts(
  holder: LeaseHolder & WorkerQueuesHolder,
  opts: RunnerOptions,
  o: ResolvedOptions,
  runnerId: string,
): RunnerParts {
  const pace = new JobPace();
  const housekeeping = new Housekeeping({ ...opts, runnerId, leaseMs: o.leaseMs });
  // The pool's messages and exits are the queues' to read: they know which job each is about
  // (the pool tells nothing before it is started, by when `workers` is set).
  const pool = new WorkerPool({
    size: opts.concurrency,
    runnerId,
    spawn: opts.spawn,
    heapMb: o.heapMb,
    totalMemoryMb: opts.totalMemoryMb,
    env: opts.workerEnv ?? {},
    unresponsiveMs: o.unresponsiveMs,
    clock: o.clock,
    log: o.log,
    onEvent: (e) => {
      switch (e.kind) {
        case 'ready':
          return holder.onWorkerEvent({ kind: 'ready' });
        case 'message':
          return workers.onMessage(e.slot, e.msg);
        case 'exit':
          return workers.exited(e.slot, e.exit);
        case 'spawn_failed':
          return holder.onWorkerEvent({ kind: 'launch_failed', message: e.message });
      }
    },
  });
  const workers: WorkerQueues = new WorkerQueues(pool, holder, {
    registry: opts.registry,
    pace,
    heapMb: o.heapMb,
    cancelGraceMs: o.cancelGraceMs,
    unresponsiveMs: o.unresponsiveMs,
    clock: o.clock,
  });
  return {
    completer: new Completer(opts.transitions, o.leaseMs, o.log),
    housekeeping,
    leases: new LeaseKeeper(housekeeping, holder, o),
    pool,
    workers,
    pace,
    cycleBudget: new CycleBudget(),
    backoff: new MachineryBackoff(o.clock),
  };
}
