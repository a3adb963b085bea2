/**
 * The job runner: the life of one job in this process, top to bottom. Read it in order — claim,
 * hand over, run, finish, commit — and each step names the part that does it. The parts are built
 * in ./parts.ts; what a runner is given and reports is ./options.ts; the attempt's states are
 * asserted in ./attempt.ts.
 *
 *   claimed      a cycle's transaction claims rows for the workers that want work
 *     │            (cycle → Completer.commit → planning.ts claimFor; payload parsed: running-job.ts)
 *     ├─▶ loading      an asynchronous `load` prepares it in main (WorkerQueues.whenLoaded)
 *     ▼     ▼
 *   handed       sent to its worker in a `run` message, behind the job it runs (assign → WorkerQueues.hand)
 *     │ ▲
 *     │ └── revoking   asked back for an idle worker (WorkerQueues.stealFor); the worker's `revoked` answers
 *     ▼
 *   running      at the head of its worker's queue: the handler runs, its time limit counts;
 *     │            progress is written by Attempt.progress (a `progress` WorkerEvent, below)
 *     ├─▶ aborting(reason)   cancel, timeout, lost lease or shutdown (a LeaseEvent from the
 *     │                      LeaseKeeper, or the attempt's own time limit → WorkerQueues.abort);
 *     │                      its process is killed if the handler does not stop within the grace
 *     ▼
 *   finished     a result, a failure, an exit or a give-back: a `finished` WorkerEvent, its
 *     │            Outcome waits in `pending` (onWorkerEvent)
 *     ▼
 *   committing   in the next cycle's group commit with others' (cycle → Completer.commit); a
 *     │            machinery error puts it back to finished, a checkpoint starts its next step
 *     ▼            as claimed again (afterCommit → WorkerQueues.continueAfterCommit)
 *   ended
 *
 * Guarantees (see BRIEF §3): a job runs in at most one place at a time (claims are conditional
 * updates and every later write is fenced on owner+attempt); a result is either committed with
 * its job's success or discarded; a crashed or hung process costs its job one retry; a machinery
 * error (busy or full disk, spawn failure) backs off and is counted, never stops the loop.
 *
 * The runner's modes: created → running ⇄ backing_off → stopping → stopped (asserted, see
 * `enter`). Paused is not a mode: a paused runner commits outcomes and renews leases but claims
 * nothing. Its timers run on the clock it is given.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { JobRow } from '../store/rows';
import { describeMachineryError, isMachineryError } from '../machinery';
import type { Outcome, Settled } from './completer';
import type { LeaseEvent, LeaseHolder } from './lease-keeper';
import type { Attempt } from './attempt';
import { newRunnerId } from './housekeeping';
import type { WorkerSlot } from './worker-pool';
import type { WorkerEvent, WorkerQueuesHolder } from './worker-queues';
import { buildParts, type RunnerParts } from './parts';
import { CyclePump } from './cycle-pump';
import { claimFor, planClaims, type Claims } from './planning';
import { TRANSITIONS, withDefaults, type Mode, type ResolvedOptions, type RunnerOptions, type RunnerStats } from './options';
import { cancel, type Cancel } from '../clock';

export type { RunnerOptions, RunnerStats } from './options';

export class JobRunner implements LeaseHolder, WorkerQueuesHolder {
  readonly runnerId: string;
  /** Resolves when `maxJobs` have finished or, with `exitWhenIdle`, when nothing is claimable; and on stop. */
  readonly finished: Promise<void>;
  private readonly o: ResolvedOptions;
  private readonly p: RunnerParts;
  private mode: Mode = 'created';
  /** When cycles run: one per turn of the event loop, or within the commit window after a result. */
  private readonly pump = new CyclePump(
    () => this.cycle(this.mode === 'running' && !this.o.paused),
    () => this.checkFinished(),
  );
  /** Finished attempts whose outcomes wait for the next cycle's commit. */
  private readonly pending: Outcome[] = [];
  /** The last claim for an idle worker found nothing ready (cleared by anything committed or claimed since). */
  private queueDrained = false;
  private pollTimer?: Cancel;
  private stopPromise?: Promise<void>;
  private finishedResolve!: () => void;
  private readonly stats = {
    claimed: 0,
    succeeded: 0,
    failed: 0,
    discarded: 0,
    handedBack: 0,
    machineryErrors: 0,
    lastMachineryError: null as string | null,
  };

  constructor(opts: RunnerOptions) {
    this.runnerId = opts.runnerId ?? newRunnerId();
    this.o = withDefaults(opts);
    this.finished = new Promise((resolve) => (this.finishedResolve = resolve));
    this.p = buildParts(this, opts, this.o, this.runnerId);
  }

  // ---------------------------------------------------------------- 1. claim, and 5. commit: one cycle

  /**
   * One write transaction: commit waiting outcomes (group commit) and, when `claim`, claim for the
   * workers that want work. Claimed jobs are handed over only once it has committed. On a
   * machinery error nothing is lost: the outcomes stay pending and the runner backs off.
   * False when nothing could be committed.
   */
  private cycle(claim: boolean): boolean {
    if (this.mode !== 'running' && this.mode !== 'stopping') return false;
    const { workers, pace, cycleBudget } = this.p;
    // Bounded: a cycle blocks main's event loop (see CycleBudget). Outcomes first.
    const items = cycleBudget.items();
    const committing = Math.min(this.pending.length, items);
    const budget = this.o.maxJobs === undefined ? Infinity : this.o.maxJobs - this.stats.claimed;
    const prefetchOf = pace.prefetch.bind(pace);
    const wants =
      claim && budget > 0
        ? planClaims(this.p.pool.slots, (s) => workers.of(s), workers.continuing, this.pending, prefetchOf, committing)
        : [];
    if (!this.pending.length && !wants.length) return true;
    const batch = this.pending.splice(0, committing);
    for (const o of batch) o.job.committing();
    const started = performance.now();
    if (this.pending.length) this.wake();
    let result: { settled: Settled; then: Claims };
    try {
      result = this.p.completer.commit(batch, () =>
        claimFor(wants, {
          transitions: this.o.transitions,
          registry: this.o.registry,
          leaseMs: this.o.leaseMs,
          onlyTypes: this.o.onlyTypes,
          queues: workers.all,
          budget,
          room: items - batch.length,
          prefetchOf,
        }),
      );
    } catch (err) {
      for (const o of batch) o.job.uncommitted();
      this.pending.unshift(...batch);
      this.machineryError(batch.length ? 'commit' : 'claim', err);
      return false;
    }
    this.p.backoff.recovered();
    const { claims, cut } = result.then;
    cycleBudget.spent(batch.length + claims.reduce((n, c) => n + c.rows.length, 0), performance.now() - started);
    this.afterCommit(batch, result.settled);
    // Workers whose claims did not fit in this cycle are served by the next.
    if (cut) this.wake();
    let idleUnserved = 0;
    for (const { want, rows } of claims) {
      if (rows.length) this.assign(want.slot, rows);
      else if (want.idle) idleUnserved++;
    }
    if (idleUnserved) workers.stealFor(idleUnserved);
    // Drained once an idle worker found nothing to claim; anything committed or claimed since
    // means that must be established again by a later claim.
    if (claims.some((c) => c.want.idle && !c.rows.length)) this.queueDrained = true;
    else if (batch.length || claims.length) this.queueDrained = false;
    return true;
  }

  // ---------------------------------------------------------------- 2. hand over

  /** Claimed rows go to the slot's worker (or fail at once when their payload or load does). */
  private assign(slot: WorkerSlot, rows: JobRow[]): void {
    this.stats.claimed += rows.length;
    this.tellChanged(rows.map((r) => r.id));
    this.p.workers.hand(slot, rows);
    if (this.pending.length) this.wake();
  }

  // ---------------------------------------------------------------- 3. run, and 4. finish (what the workers tell)

  onWorkerEvent(e: WorkerEvent): void {
    switch (e.kind) {
      case 'ready':
        return this.wake();
      case 'progress':
        if (e.attempt.progress(e.fraction, e.message, this.o)) this.tellChanged([e.attempt.lease.id]);
        return;
      case 'finished': {
        const { outcome } = e;
        this.pending.push(outcome);
        if (outcome.kind === 'release' && outcome.event === 'handed_back') this.stats.handedBack++;
        return outcome.kind === 'result' ? this.wakeForResult() : this.wake();
      }
      case 'launch_failed':
        return this.countMachineryError(e.message);
    }
  }

  /** A result arrived: commit it at once if a worker is idle, else within the commit window, with others. */
  private wakeForResult(): void {
    const someoneIdle = this.p.pool.slots.some((s) => s.ready && this.p.workers.of(s).length === 0);
    if (someoneIdle || this.pending.length >= this.p.cycleBudget.items() || this.mode !== 'running') return this.wake();
    this.pump.wakeWithinWindow();
  }

  // ---------------------------------------------------------------- 5. committed

  private afterCommit(batch: Outcome[], done: Settled): void {
    this.stats.succeeded += done.succeeded;
    this.stats.failed += done.failed;
    this.stats.discarded += done.discarded;
    for (const note of done.notes) this.o.log.warn(note);
    for (const owner of done.succeededBy) {
      const slot = this.p.pool.slots.find((s) => s.owner === owner);
      if (slot) this.p.pool.succeeded(slot);
    }
    this.p.workers.continueAfterCommit(done.continued);
    for (const o of batch) o.job.committed();
    if (batch.length) this.tellChanged(batch.map((o) => o.job.lease.id));
  }

  // ---------------------------------------------------------------- leases (what the LeaseKeeper asks and tells)

  get accepting(): boolean {
    return this.mode === 'running';
  }

  leasedAttempts(): Attempt[] {
    const { pool, workers } = this.p;
    pool.ping((slot) => workers.of(slot).length > 0);
    // Finished jobs whose outcome waits to be committed (e.g. the database was busy) are still ours.
    const waiting = this.pending.filter((o) => o.kind !== 'release' && o.job.abortReason !== 'lost').map((o) => o.job);
    return workers
      .held()
      .map((h) => h.job)
      .concat(waiting);
  }

  commitWaiting(): void {
    this.cycle(false);
  }

  onLeaseEvent(e: LeaseEvent): void {
    switch (e.kind) {
      case 'lost':
      case 'cancel': {
        // An attempt already finished keeps its outcome (a lost lease's is discarded at commit).
        // A live attempt is always held by a slot: a retiring worker leaves only once it holds none.
        const slot = this.p.workers.slotOf(e.attempt);
        if (e.attempt.live && slot) this.p.workers.abort(slot, e.attempt, e.kind);
        return;
      }
      case 'reclaimed':
        this.tellChanged(e.ids);
        return this.wake();
      case 'failed':
        return this.machineryError(e.what, e.err);
    }
  }

  /** A cancel was requested in this process: if we hold the job, stop it now rather than at the next renewal. */
  cancelRequested(jobId: number): void {
    for (const { slot, job } of this.p.workers.held()) if (job.lease.id === jobId) this.p.workers.abort(slot, job, 'cancel');
  }

  // ---------------------------------------------------------------- the runner's loop

  /**
   * New work may be ready (an enqueue in this process, a timer) or outcomes wait to be committed:
   * run a cycle on the next turn of the event loop instead of waiting for the poll.
   */
  wake(): void {
    this.pump.wake();
  }

  private checkFinished(): void {
    if (this.pending.length || this.p.workers.busySlots().length) return;
    const budgetSpent = this.o.maxJobs !== undefined && this.stats.claimed >= this.o.maxJobs;
    if (budgetSpent || (this.o.exitWhenIdle && this.queueDrained)) this.finishedResolve();
  }

  private enter(next: Mode): void {
    if (!TRANSITIONS[this.mode].includes(next)) throw new Error(`job runner: ${this.mode} → ${next} is not a transition`);
    this.mode = next;
  }

  private machineryError(what: string, err: unknown): void {
    if (!isMachineryError(err)) {
      // A bug, not the environment: still never let it kill the loop.
      this.o.log.error(`job runner ${what} failed: ${(err as Error)?.stack ?? String(err)}`);
    }
    this.countMachineryError(`${what}: ${describeMachineryError(err)}`);
    // Already backing off (or stopping): count it, but do not push the retry further out.
    if (this.mode !== 'running') return;
    this.enter('backing_off');
    const delayMs = this.p.backoff.wait(() => {
      if (this.mode !== 'backing_off') return;
      this.enter('running');
      this.wake();
    });
    this.o.log.warn(`job runner ${what} failed (${this.stats.lastMachineryError}); backing off ${delayMs} ms`);
  }

  private countMachineryError(message: string): void {
    this.stats.machineryErrors++;
    this.stats.lastMachineryError = message;
  }

  /** Told as they happen: the one coalescing of these is the listener's (core/job-changes.ts). */
  private tellChanged(ids: number[]): void {
    this.o.onJobsChanged?.(ids);
  }

  // ---------------------------------------------------------------- start, stop and settings

  start(): void {
    if (this.mode !== 'created') return;
    this.enter('running');
    this.p.pool.start();
    this.p.leases.start(); // jobs of a runner that is gone come back first
    this.pollTimer = this.o.clock.every(this.o.pollEveryMs, () => this.wake());
  }

  /**
   * Stops claiming; in-flight jobs get `graceMs` to finish, then their worker processes are
   * stopped and only then are their leases released without charging a retry (so a released job
   * is never still running here while another runner picks it up). Concurrent callers share one stop.
   */
  stop(graceMs = 10_000): Promise<void> {
    this.stopPromise ??= this.doStop(graceMs);
    return this.stopPromise;
  }

  private async doStop(graceMs: number): Promise<void> {
    const { workers, pool } = this.p;
    this.enter('stopping');
    this.p.leases.stop();
    cancel(this.pollTimer);
    this.p.backoff.stop();
    this.pump.clearWindow();
    // Real time, not the clock's: this waits for processes to finish their work.
    const deadline = Date.now() + graceMs;
    while (workers.busySlots().length && Date.now() < deadline) await sleep(25);
    workers.markShutdown();
    // Each job a stopped process held comes back as a `finished` release (WorkerQueues.exited).
    await pool.stop((slot) => workers.of(slot).length > 0);
    workers.releaseAll();
    // Cycles are bounded: keep committing until everything is written or the database refuses.
    while (this.pending.length && this.cycle(false));
    if (this.pending.length) {
      this.o.log.error(`could not release ${this.pending.length} job(s) on shutdown; their leases will lapse and be reclaimed`);
    }
    this.enter('stopped');
    this.pump.stop();
    this.finishedResolve();
  }

  setPaused(paused: boolean): void {
    this.o.paused = paused;
    if (!paused) this.wake();
  }

  get paused(): boolean {
    return this.o.paused;
  }

  /** The worker count, changed live (Settings): see WorkerQueues.resize. */
  setConcurrency(workers: number): void {
    this.p.workers.resize(workers);
    this.wake();
  }

  getStats(): RunnerStats {
    const workers = this.p.pool.health();
    return {
      runnerId: this.runnerId,
      workersAlive: workers.ready,
      workersConfigured: this.p.pool.size,
      workersStarting: workers.starting,
      workersFailed: workers.failed,
      paused: this.o.paused,
      memory: this.p.pool.memoryBudget,
      ...this.stats,
    };
  }
}
