/**
 * Lease housekeeping, as River's rescuer and cleaner: renew the leases this runner holds, take
 * back jobs whose lease lapsed (their runner died or hung), give back at once the jobs of a
 * runner of this machine whose process is gone, and prune old finished jobs in short slices.
 * Each is one small transaction; the runner decides when to call them.
 */
import os from 'node:os';
import type { JobRegistry } from '../registry';
import { onFailedHook, parseStoredPayload } from '../type-hooks';
import type { JobTransitions } from '../store/transitions';
import type { Lease } from '../store/rows';

/** A runner's id: `<host>:<pid>:<random>`; its workers own leases as `<runner id>/w<n>`. */
export function newRunnerId(): string {
  return `${os.hostname()}:${process.pid}:${Math.random().toString(16).slice(2, 8)}`;
}

/**
 * True when a lease owner is a runner of this machine whose process no longer exists: no worker
 * of it can still be running the job. A live process, another machine (a library on a network
 * share) or an owner we cannot parse is not known to be gone: its leases are left to lapse.
 */
export function isOwnerGone(owner: string, host = os.hostname(), alive = processExists): boolean {
  const m = /^(.*):(\d+):[^:/]+\/w\d+$/.exec(owner);
  if (!m || m[1] !== host) return false;
  const pid = Number(m[2]);
  return pid !== process.pid && !alive(pid);
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, it is just not ours to signal.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** One prune transaction should stay well inside a UI frame, however large the backlog. */
const PRUNE_SLICE_TARGET_MS = 4;
const PRUNE_SLICE_MIN = 50;
const PRUNE_SLICE_MAX = 5000;

export class Housekeeping {
  private sliceSize = 500;

  constructor(
    private readonly o: {
      transitions: JobTransitions;
      registry: JobRegistry;
      runnerId: string;
      leaseMs: number;
      /** How long finished jobs are kept (the library's retention setting). */
      retentionMs: () => number;
    },
  ) {}

  renew(leases: readonly Lease[]): { lost: Lease[]; cancelRequested: Lease[] } {
    if (!leases.length) return { lost: [], cancelRequested: [] };
    return this.o.transitions.renew(leases, this.o.leaseMs);
  }

  /** Requeues (or fails, or cancels) jobs whose lease lapsed; returns the ids it changed. */
  reclaimLapsed(): number[] {
    const r = this.o.transitions.reclaimLapsed(this.o.runnerId, (row) => {
      const registered = this.o.registry.get(row.type);
      if (!registered?.half.onFailed) return undefined;
      // The hook is handed a payload its schema accepts, or is not called at all.
      const stored = parseStoredPayload(row, registered.definition);
      if ('error' in stored) return undefined;
      const ctx = { id: row.id, attempt: row.attempt, payload: stored.payload, subject: row.subject };
      return onFailedHook(registered.half, row.type, ctx);
    });
    return [...r.requeued, ...r.failed, ...r.cancelled];
  }

  /** At start: jobs left running by a runner of this machine that is gone are queued again, uncharged. */
  releaseOrphans(isGone: (owner: string) => boolean = isOwnerGone): number[] {
    return this.o.transitions.releaseOrphans(this.o.runnerId, isGone);
  }

  /**
   * Deletes one slice of finished jobs past retention. The slice adapts so one transaction takes
   * about PRUNE_SLICE_TARGET_MS; `more` says a backlog remains (call again soon).
   */
  pruneSlice(): { pruned: number; more: boolean } {
    const started = performance.now();
    const limit = this.sliceSize;
    const pruned = this.o.transitions.prune(this.o.retentionMs(), limit);
    const took = performance.now() - started;
    if (pruned === limit) {
      const scale = took > 0 ? PRUNE_SLICE_TARGET_MS / took : 2;
      this.sliceSize = Math.round(Math.max(PRUNE_SLICE_MIN, Math.min(PRUNE_SLICE_MAX, limit * Math.min(2, scale))));
    }
    return { pruned, more: pruned === limit };
  }
}
