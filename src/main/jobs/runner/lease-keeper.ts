/**
 * Lease upkeep on the runner's clock: renew the leases of every job this runner holds (and ping
 * the workers running them), sweep jobs whose lease lapsed, and prune old finished jobs slice by
 * slice. The transactions are Housekeeping's; this part owns the timers and tells the runner what
 * it found — a job whose lease was lost or whose cancel was asked for — through its host.
 */
import type { Lease } from '../store/rows';
import type { Housekeeping } from './housekeeping';
import type { Logger } from '../../logger';
import type { RunningJob } from './running-job';
import type { WorkerSlot } from './worker-pool';
import { cancel, type Cancel, type Clock } from '../clock';

export interface LeaseKeeperHost {
  /** False while backing off, stopping or stopped: a sweep then waits. */
  running(): boolean;
  /** Every job a worker holds (running or queued behind), with its worker. */
  held(): { slot: WorkerSlot; job: RunningJob }[];
  /** Leases of finished jobs whose outcome waits to be committed: still ours. */
  committing(): Lease[];
  /** Pings the workers that hold jobs (an unresponsive one is replaced by the pool). */
  pingBusyWorkers(): void;
  /** Commits waiting outcomes (before a sweep, so ours are never taken for abandoned ones). */
  flush(): void;
  /** A held job's lease is gone or its cancel was asked for: stop it. */
  abort(slot: WorkerSlot, job: RunningJob, reason: 'lost' | 'cancel'): void;
  changed(ids: number[]): void;
  wake(): void;
  machineryError(what: string, err: unknown): void;
}

export interface LeaseKeeperOptions {
  renewEveryMs: number;
  sweepEveryMs: number;
  pruneEveryMs: number;
  log: Logger;
  clock: Clock;
}

export class LeaseKeeper {
  private timers: Cancel[] = [];
  private pruneTimer?: Cancel;
  private lastPruneAt = 0;

  constructor(
    private readonly housekeeping: Housekeeping,
    private readonly host: LeaseKeeperHost,
    private readonly o: LeaseKeeperOptions,
  ) {}

  /** Sweeps once now, then renews and sweeps on their intervals. */
  start(): void {
    this.sweep();
    this.timers.push(this.o.clock.every(this.o.renewEveryMs, () => this.renew()));
    this.timers.push(this.o.clock.every(this.o.sweepEveryMs, () => this.sweep()));
  }

  stop(): void {
    this.timers.forEach(cancel);
    this.timers = [];
    cancel(this.pruneTimer);
  }

  renew(): void {
    this.host.pingBusyWorkers();
    const held = new Map<number, { slot: WorkerSlot; job: RunningJob }>();
    for (const h of this.host.held()) held.set(h.job.lease.id, h);
    const leases = [...held.values()].map((h) => h.job.lease).concat(this.host.committing());
    try {
      const { lost, cancelRequested } = this.housekeeping.renew(leases);
      for (const l of lost) {
        this.o.log.warn(`job ${l.id}: lease lost; its result will be discarded`);
        const hit = held.get(l.id);
        if (hit) this.host.abort(hit.slot, hit.job, 'lost');
      }
      for (const l of cancelRequested) {
        const hit = held.get(l.id);
        if (hit) this.host.abort(hit.slot, hit.job, 'cancel');
      }
    } catch (err) {
      this.host.machineryError('lease renewal', err);
    }
  }

  /**
   * Takes back jobs whose lease lapsed and prunes old finished jobs. Our own outcomes are
   * committed and our own leases renewed first, so a job of ours that merely waited on a busy
   * database is never mistaken for an abandoned one; while backing off the sweep waits too.
   */
  sweep(): void {
    if (!this.host.running()) return;
    this.host.flush();
    if (this.timers.length) this.renew();
    if (!this.host.running()) return;
    try {
      const ids = this.housekeeping.reclaimLapsed();
      if (ids.length) {
        this.o.log.warn(`reclaimed ${ids.length} job(s) whose lease lapsed: ${ids.join(', ')}`);
        this.host.changed(ids);
        this.host.wake();
      }
    } catch (err) {
      return this.host.machineryError('lease sweep', err);
    }
    if (this.o.clock.now() - this.lastPruneAt >= this.o.pruneEveryMs) {
      this.lastPruneAt = this.o.clock.now();
      this.pruneSlices(0);
    }
  }

  /** Prunes slice by slice, each its own short transaction, yielding to main between slices. */
  private pruneSlices(total: number): void {
    if (!this.host.running()) return;
    try {
      const { pruned, more } = this.housekeeping.pruneSlice();
      total += pruned;
      if (more) {
        this.pruneTimer = this.o.clock.after(10, () => this.pruneSlices(total), { background: true });
      } else if (total) this.o.log.info(`pruned ${total} finished job(s) past retention`);
    } catch (err) {
      this.host.machineryError('pruning finished jobs', err);
    }
  }
}
