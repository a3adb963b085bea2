/**
 * Claim planning: which workers want jobs now, and how many. A worker holds work ahead — up to
 * its type's `prefetch` queued behind the one it runs — so it never waits for main to commit and
 * claim between jobs. A queue is topped up to its full depth once half of its prefetch is used,
 * so claims (and their commits) come in batches rather than one per job.
 */
import type { Outcome } from './completer';
import type { RunningJob } from './running-job';
import type { WorkerSlot } from './worker-pool';

export interface Want {
  slot: WorkerSlot;
  /** The worker has nothing: it may take any type (its hand-off decides how many). */
  idle: boolean;
  /** Topping up: more of the type it is working through. */
  type?: string;
  max: number;
}

export function planClaims(
  slots: readonly WorkerSlot[],
  queueOf: (slot: WorkerSlot) => readonly RunningJob[],
  continuing: ReadonlySet<number>,
  pending: readonly Outcome[],
): Want[] {
  const wants: Want[] = [];
  for (const slot of slots) {
    if (!slot.ready || continuing.has(slot.index)) continue;
    // A step of a checkpointed job is being committed: its next step comes back to this worker.
    if (pending.some((o) => o.kind === 'result' && o.job.definition.policy.checkpointed && o.job.lease.claimedBy === slot.owner))
      continue;
    const queue = queueOf(slot);
    if (!queue.length) {
      wants.push({ slot, idle: true, max: Infinity });
      continue;
    }
    if (queue.some((j) => j.abortReason || j.revoking)) continue;
    const last = queue[queue.length - 1];
    const depth = 1 + last.definition.policy.prefetch;
    if (queue.length >= depth || queue.length > 1 + last.definition.policy.prefetch / 2) continue;
    wants.push({ slot, idle: false, type: last.row.type, max: depth - queue.length });
  }
  // Idle workers first: a job a busy worker handed back goes to the idle one, not back to it.
  return wants.sort((a, b) => Number(b.idle) - Number(a.idle));
}

/** The worker holding the most jobs it has not started (and may give back), if any holds one. */
export function stealable(
  slots: readonly WorkerSlot[],
  queueOf: (slot: WorkerSlot) => readonly RunningJob[],
): WorkerSlot | undefined {
  let best: WorkerSlot | undefined;
  let most = 0;
  for (const slot of slots) {
    const waiting = queueOf(slot)
      .slice(1)
      .filter((j) => !j.revoking && !j.abortReason).length;
    if (waiting > most) {
      most = waiting;
      best = slot;
    }
  }
  return best;
}
