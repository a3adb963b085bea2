/**
 * Claim planning: which workers want jobs now, and how many. A worker holds work ahead — up to
 * its type's prefetch (the policy's, or more for short jobs: see JobPace) queued behind the one it
 * runs — so it never waits for main to commit and claim between jobs. A queue is topped up to its
 * full depth once half of its prefetch is used, so claims (and their commits) come in batches
 * rather than one per job.
 */
import type { AnyJobType } from '../../../shared/jobs/define';
import type { JobRegistry } from '../registry';
import type { JobRow } from '../store/rows';
import type { JobTransitions } from '../store/transitions';
import type { Outcome } from './completer';
import type { Attempt } from './attempt';
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
  queueOf: (slot: WorkerSlot) => readonly Attempt[],
  continuing: ReadonlySet<number>,
  pending: readonly Outcome[],
  /** How many a worker may hold behind the job it runs (JobPace.prefetch). */
  prefetchOf: (definition: AnyJobType) => number,
  /** How many outcomes at the head of `pending` this cycle's transaction commits. */
  committing = 0,
): Want[] {
  const wants: Want[] = [];
  // One pass over what is pending, not one per worker (hundreds wait during a drain of short jobs):
  //  - a step of a checkpointed job is being committed: its next step comes back to that worker;
  //  - a worker's finished jobs whose outcomes wait for a later transaction still count as held.
  //    Otherwise a worker that runs faster than main commits is topped up again and again, and
  //    the outcomes waiting in main's memory (work a crash would redo) grow without bound.
  const stepping = new Set<string>();
  const uncommitted = new Map<string, { n: number; last: Attempt }>();
  pending.forEach((o, i) => {
    const owner = o.job.lease.claimedBy;
    if (o.kind === 'result' && o.job.definition.policy.checkpointed) stepping.add(owner);
    if (i < committing || o.kind === 'release') return;
    const u = uncommitted.get(owner);
    if (u) {
      u.n++;
      u.last = o.job;
    } else uncommitted.set(owner, { n: 1, last: o.job });
  });
  for (const slot of slots) {
    if (!slot.ready || continuing.has(slot.index) || stepping.has(slot.owner)) continue;
    const queue = queueOf(slot);
    const waiting = uncommitted.get(slot.owner);
    const held = queue.length + (waiting?.n ?? 0);
    if (!held) {
      wants.push({ slot, idle: true, max: Infinity });
      continue;
    }
    if (queue.some((j) => j.leaving)) continue;
    const last = queue.length ? queue[queue.length - 1] : waiting!.last;
    const prefetch = prefetchOf(last.definition);
    const depth = 1 + prefetch;
    if (held >= depth || held > 1 + prefetch / 2) continue;
    wants.push({ slot, idle: false, type: last.row.type, max: depth - held });
  }
  // Idle workers first: a job a busy worker handed back goes to the idle one, not back to it.
  return wants.sort((a, b) => Number(b.idle) - Number(a.idle));
}

/** The worker holding the most jobs it has not started (and may give back), if any holds one. */
export function stealable(
  slots: readonly WorkerSlot[],
  queueOf: (slot: WorkerSlot) => readonly Attempt[],
): WorkerSlot | undefined {
  let best: WorkerSlot | undefined;
  let most = 0;
  for (const slot of slots) {
    const waiting = queueOf(slot)
      .slice(1)
      .filter((j) => !j.leaving).length;
    if (waiting > most) {
      most = waiting;
      best = slot;
    }
  }
  return best;
}

/** What a claim needs to know: the store, the types, and what each worker already holds. */
export interface ClaimContext {
  transitions: JobTransitions;
  registry: JobRegistry;
  leaseMs: number;
  onlyTypes?: readonly string[];
  /** Per slot, the jobs its worker holds ([0] is the one it runs). */
  queues: readonly (readonly Attempt[])[];
  /** How many more jobs this runner may claim (`maxJobs`). */
  budget: number;
  /** How many jobs fit in this transaction (the cycle's time budget, after its outcomes). */
  room: number;
  /** How many a worker may hold behind the job it runs (JobPace.prefetch). */
  prefetchOf(definition: AnyJobType): number;
}

/** The claims made for wants; `cut` when wants were left for a later transaction (no room in this one). */
export interface Claims {
  claims: { want: Want; rows: JobRow[] }[];
  cut: boolean;
}

/** Inside the cycle's transaction: the claims for these wants (no side effects but the database). */
export function claimFor(wants: readonly Want[], ctx: ClaimContext): Claims {
  const out: { want: Want; rows: JobRow[] }[] = [];
  if (!wants.length) return { claims: out, cut: false };
  if (ctx.room <= 0) return { claims: out, cut: true };
  // What is queued decides the filter: nothing of a type we run → no claim at all; only types we
  // run (the usual case) → no type filter in the SQL.
  const queuedByType = ctx.transitions.queued();
  const queued = queuedByType.map((q) => q.type);
  // Idle workers share what is queued: one does not take a whole depth the others would then
  // have to take back (at the start of a small batch, every idle worker gets some).
  const idleWants = wants.filter((w) => w.idle).length;
  const share = Math.max(1, Math.ceil(queuedByType.reduce((n, q) => n + q.n, 0) / Math.max(1, idleWants)));
  let budget = ctx.budget;
  let room = ctx.room;
  let cut = false;
  let drained = false;
  const working = new Map<string, number>();
  for (const q of ctx.queues) if (q.length) working.set(q[0].row.type, (working.get(q[0].row.type) ?? 0) + 1);
  for (const want of wants) {
    if (budget <= 0) break;
    if (room <= 0) {
      cut = true;
      break;
    }
    if (want.idle && drained) continue;
    const types = claimableTypes(ctx, queued, want.idle ? working : null);
    if (types !== 'any' && !types.length) {
      if (want.idle) drained = true;
      continue;
    }
    const rows = ctx.transitions.claim(want.slot.owner, ctx.leaseMs, {
      max: Math.min(want.idle ? share : want.max, budget, room),
      types,
      type: want.type,
      depth: (type) => {
        const definition = ctx.registry.definition(type);
        return 1 + (definition ? ctx.prefetchOf(definition) : 0);
      },
    });
    if (want.idle && !rows.length) drained = true;
    if (want.idle && rows.length) working.set(rows[0].type, (working.get(rows[0].type) ?? 0) + 1);
    budget -= rows.length;
    room -= rows.length;
    out.push({ want, rows });
  }
  return { claims: out, cut };
}

/**
 * Of the queued types, those a worker may take now: types this runner has handlers for (and,
 * with `onlyTypes`, is limited to), and for an idle worker (`working` given) those under their
 * concurrency. 'any' when that is every queued type, so the claim needs no type filter.
 */
function claimableTypes(
  ctx: ClaimContext,
  queued: readonly string[],
  working: ReadonlyMap<string, number> | null,
): string[] | 'any' {
  const ok = queued.filter((t) => {
    const limit = ctx.registry.definition(t)?.policy.concurrency;
    if (!ctx.registry.get(t)) return false;
    if (ctx.onlyTypes && !ctx.onlyTypes.includes(t)) return false;
    return !working || limit === undefined || (working.get(t) ?? 0) < limit;
  });
  return ok.length === queued.length ? 'any' : ok;
}
