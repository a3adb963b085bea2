/**
 * Lease upkeep on the runner's clock: at start give back the jobs of a runner of this machine
 * that is gone; then renew the leases of every job this runner holds (and ping the workers
 * running them), sweep jobs whose lease lapsed, and prune old finished jobs slice by slice. The transactions are Housekeeping's; this part owns the timers. It asks the runner three
 * things (LeaseHolder) and tells it what it found as one typed event (LeaseEvent): an attempt whose
 * lease was lost or whose cancel was asked for, jobs taken back, a renewal or sweep that failed.
 */
import type { Housekeeping } from './housekeeping';
import type { Logger } from '../../logger';
import type { Attempt } from './attempt';
import { cancel, type Cancel, type Clock } from '../clock';

/** What the keeper asks of the runner that holds the leases. */
export interface LeaseHolder {
  /** False while backing off, stopping or stopped: a sweep then waits. */
  readonly accepting: boolean;
  /**
   * Every attempt whose lease is ours: held by a worker (its workers are pinged first, so an
   * unresponsive one is replaced), or finished with its outcome waiting to be committed.
   */
  leasedAttempts(): Attempt[];
  /** Commits waiting outcomes (before a sweep, so ours are never taken for abandoned ones). */
  commitWaiting(): void;
  /** What the keeper found. */
  onLeaseEvent(e: LeaseEvent): void;
}

export type LeaseEvent =
  /** The attempt's lease is gone, or its cancel was asked for: it must stop (if it still runs). */
  | { kind: 'lost' | 'cancel'; attempt: Attempt }
  /** Jobs whose lease lapsed, or whose runner is gone, were queued again. */
  | { kind: 'reclaimed'; ids: number[] }
  | { kind: 'failed'; what: string; err: unknown };

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
    private readonly holder: LeaseHolder,
    private readonly o: LeaseKeeperOptions,
  ) {}

  /** Gives back the jobs of a runner that is gone and sweeps once now, then renews and sweeps on their intervals. */
  start(): void {
    this.releaseOrphans();
    this.sweep();
    this.timers.push(this.o.clock.every(this.o.renewEveryMs, () => this.renew()));
    this.timers.push(this.o.clock.every(this.o.sweepEveryMs, () => this.sweep()));
  }

  stop(): void {
    this.timers.forEach(cancel);
    this.timers = [];
    cancel(this.pruneTimer);
  }

  /** Jobs left running by a runner of this machine whose process is gone are queued again, uncharged. */
  private releaseOrphans(): void {
    try {
      const ids = this.housekeeping.releaseOrphans();
      if (!ids.length) return;
      this.o.log.info(`queued again ${ids.length} job(s) left running by a runner that is gone`);
      this.holder.onLeaseEvent({ kind: 'reclaimed', ids });
    } catch (err) {
      this.holder.onLeaseEvent({ kind: 'failed', what: 'releasing jobs of a runner that is gone', err });
    }
  }

  renew(): void {
    const attempts = new Map(this.holder.leasedAttempts().map((a) => [a.lease.id, a]));
    try {
      const { lost, cancelRequested } = this.housekeeping.renew([...attempts.values()].map((a) => a.lease));
      for (const l of lost) {
        this.o.log.warn(`job ${l.id}: lease lost; its result will be discarded`);
        this.holder.onLeaseEvent({ kind: 'lost', attempt: attempts.get(l.id)! });
      }
      for (const l of cancelRequested) this.holder.onLeaseEvent({ kind: 'cancel', attempt: attempts.get(l.id)! });
    } catch (err) {
      this.holder.onLeaseEvent({ kind: 'failed', what: 'lease renewal', err });
    }
  }

  /**
   * Takes back jobs whose lease lapsed and prunes old finished jobs. Our own outcomes are
   * committed and our own leases renewed first, so a job of ours that merely waited on a busy
   * database is never mistaken for an abandoned one; while backing off the sweep waits too.
   */
  sweep(): void {
    if (!this.holder.accepting) return;
    this.holder.commitWaiting();
    if (this.timers.length) this.renew();
    if (!this.holder.accepting) return;
    try {
      const ids = this.housekeeping.reclaimLapsed();
      if (ids.length) {
        this.o.log.warn(`reclaimed ${ids.length} job(s) whose lease lapsed: ${ids.join(', ')}`);
        this.holder.onLeaseEvent({ kind: 'reclaimed', ids });
      }
    } catch (err) {
      return this.holder.onLeaseEvent({ kind: 'failed', what: 'lease sweep', err });
    }
    if (this.o.clock.now() - this.lastPruneAt >= this.o.pruneEveryMs) {
      this.lastPruneAt = this.o.clock.now();
      this.pruneSlices(0);
    }
  }

  /** Prunes slice by slice, each its own short transaction, yielding to main between slices. */
  private pruneSlices(total: number): void {
    if (!this.holder.accepting) return;
    try {
      const { pruned, more } = this.housekeeping.pruneSlice();
      total += pruned;
      if (more) {
        this.pruneTimer = this.o.clock.after(10, () => this.pruneSlices(total), { background: true });
      } else if (total) this.o.log.info(`pruned ${total} finished job(s) past retention`);
    } catch (err) {
      this.holder.onLeaseEvent({ kind: 'failed', what: 'pruning finished jobs', err });
    }
  }
}
