/**
 * The job runner: the scheduling loop over the runtime's parts. It plans claims (work handed
 * ahead to each worker so none waits on main), commits outcomes and claims together (Completer),
 * supervises worker processes (WorkerPool), hands jobs to them and takes them back (WorkerQueues)
 * and keeps leases (LeaseKeeper over Housekeeping). One job's life through these parts, state by
 * state, is drawn at the top of ./attempt.ts. Its timers run on the clock it is given.
 *
 * Guarantees (see BRIEF §3): a job runs in at most one place at a time (claims are conditional
 * updates and every later write is fenced on owner+attempt); a result is either committed with
 * its job's success or discarded; a crashed or hung process costs its job one retry; a machinery
 * error (busy or full disk, spawn failure) backs off and is counted, never stops the loop.
 *
 * Modes: created → running ⇄ backing_off → stopping → stopped (asserted, see `enter`). Paused is
 * not a mode: a paused runner commits outcomes and renews leases but claims nothing.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { WorkerToMain } from '../../../shared/worker-protocol';
import type { JobRow } from '../store/rows';
import { describeMachineryError, isMachineryError } from '../machinery';
import { Completer, type Outcome, type Settled } from './completer';
import { LeaseKeeper, type LeaseEvent, type LeaseHolder } from './lease-keeper';
import type { Attempt } from './attempt';
import { Housekeeping, newRunnerId } from './housekeeping';
import { WorkerPool, type SlotExit, type WorkerSlot } from './worker-pool';
import { WorkerQueues } from './worker-queues';
import { JobPace } from './pace';
import { MachineryBackoff } from './machinery-backoff';
import { CycleBudget } from './cycle-budget';
import { claimFor, planClaims, type Claims } from './planning';
import { TRANSITIONS, withDefaults, type Mode, type ResolvedOptions, type RunnerOptions, type RunnerStats } from './options';
import { cancel, type Cancel } from '../clock';

export type { RunnerOptions, RunnerStats } from './options';

/**
 * While every worker still has work in hand, a result waits this long for others to commit with
 * it (group commit across workers): no worker waits meanwhile, and one transaction serves many.
 */
const COMMIT_WINDOW_MS = 1;

export class JobRunner implements LeaseHolder {
  readonly runnerId: string;
  /** Resolves when `maxJobs` have finished or, with `exitWhenIdle`, when nothing is claimable; and on stop. */
  readonly finished: Promise<void>;
  private readonly o: ResolvedOptions;
  private mode: Mode = 'created';
  /** The pump: idle, a cycle scheduled on the next turn, a cycle running, or running with another asked for. */
  private pumpState: 'idle' | 'scheduled' | 'cycling' | 'again' = 'idle';
  private readonly pool: WorkerPool;
  private readonly completer: Completer;
  private readonly housekeeping: Housekeeping;
  private readonly leases: LeaseKeeper;
  /** The jobs each worker holds, and how they get there and leave. */
  private readonly workers: WorkerQueues;
  /** How long each type's jobs take, and so how far ahead workers are handed them. */
  private readonly pace = new JobPace();
  private readonly pending: Outcome[] = [];
  /** The last claim for an idle worker found nothing ready (cleared by anything committed or claimed since). */
  private queueDrained = false;
  /** How many outcomes and claims one cycle may take on. */
  private readonly cycleBudget = new CycleBudget();
  private readonly backoff: MachineryBackoff;
  /** The commit window: real time, not the clock's (it batches results; it is not a policy). */
  private windowTimer?: NodeJS.Timeout;
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
    this.backoff = new MachineryBackoff(this.o.clock);
    this.finished = new Promise((resolve) => (this.finishedResolve = resolve));
    this.completer = new Completer(opts.transitions, this.o.leaseMs, this.o.log);
    this.housekeeping = new Housekeeping({ ...opts, runnerId: this.runnerId, leaseMs: this.o.leaseMs });
    this.leases = new LeaseKeeper(this.housekeeping, this, this.o);
    this.pool = new WorkerPool({
      size: opts.concurrency,
      runnerId: this.runnerId,
      spawn: opts.spawn,
      heapMb: this.o.heapMb,
      totalMemoryMb: opts.totalMemoryMb,
      env: opts.workerEnv ?? {},
      unresponsiveMs: this.o.unresponsiveMs,
      log: this.o.log,
      onReady: () => this.wake(),
      onMessage: (slot, msg) => this.onMessage(slot, msg),
      onExit: (slot, exit) => this.onExit(slot, exit),
      onSpawnError: (message) => this.countMachineryError(message),
    });
    this.workers = new WorkerQueues(
      this.pool,
      {
        outcome: (o) => this.pending.push(o),
        wake: () => this.wake(),
        changed: (id) => this.markChanged(id),
        running: () => this.mode === 'running',
        countMachineryError: (message) => this.countMachineryError(message),
      },
      {
        registry: opts.registry,
        pace: this.pace,
        heapMb: this.o.heapMb,
        cancelGraceMs: this.o.cancelGraceMs,
        unresponsiveMs: this.o.unresponsiveMs,
        clock: this.o.clock,
      },
    );
  }

  // ---------------------------------------------------------------- lifecycle

  start(): void {
    if (this.mode !== 'created') return;
    this.enter('running');
    try {
      const orphans = this.housekeeping.releaseOrphans();
      if (orphans.length) this.o.log.info(`queued again ${orphans.length} job(s) left running by a runner that is gone`);
      orphans.forEach((id) => this.markChanged(id));
    } catch (err) {
      this.machineryError('releasing jobs of a runner that is gone', err);
    }
    this.pool.start();
    this.leases.start();
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
    this.enter('stopping');
    this.leases.stop();
    cancel(this.pollTimer);
    this.backoff.stop();
    clearTimeout(this.windowTimer);
    // Real time, not the clock's: this waits for processes to finish their work.
    const deadline = Date.now() + graceMs;
    while (this.workers.busySlots().length && Date.now() < deadline) await sleep(25);
    this.workers.markShutdown();
    // onExit queues a release for every job a stopped process held.
    await this.pool.stop((slot) => this.workers.of(slot).length > 0);
    this.workers.releaseAll();
    // Cycles are bounded: keep committing until everything is written or the database refuses.
    while (this.pending.length && this.cycle(false));
    if (this.pending.length) {
      this.o.log.error(`could not release ${this.pending.length} job(s) on shutdown; their leases will lapse and be reclaimed`);
    }
    this.enter('stopped');
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
    this.workers.resize(workers);
    this.wake();
  }

  getStats(): RunnerStats {
    const workers = this.pool.health();
    return {
      runnerId: this.runnerId,
      workersAlive: workers.ready,
      workersConfigured: this.pool.size,
      workersStarting: workers.starting,
      workersFailed: workers.failed,
      paused: this.o.paused,
      memory: this.pool.memoryBudget,
      ...this.stats,
    };
  }

  /**
   * New work may be ready (an enqueue in this process, a timer) or outcomes wait to be committed:
   * run a cycle on the next turn of the event loop instead of waiting for the poll.
   */
  wake(): void {
    clearTimeout(this.windowTimer);
    this.windowTimer = undefined;
    if (this.pumpState === 'cycling') this.pumpState = 'again';
    if (this.pumpState !== 'idle' || this.mode === 'stopped') return;
    this.pumpState = 'scheduled';
    setImmediate(() => this.pump());
  }

  /** A result arrived: commit it at once if a worker is idle, else within the commit window, with others. */
  private wakeForResult(): void {
    const someoneIdle = this.pool.slots.some((s) => s.ready && this.workers.of(s).length === 0);
    if (someoneIdle || this.pending.length >= this.cycleBudget.items() || this.mode !== 'running') return this.wake();
    if (this.windowTimer || this.pumpState !== 'idle') return;
    this.windowTimer = setTimeout(() => this.wake(), COMMIT_WINDOW_MS);
  }

  // ---------------------------------------------------------------- leases (LeaseKeeper asks and tells)

  get accepting(): boolean {
    return this.mode === 'running';
  }

  leasedAttempts(): Attempt[] {
    this.pool.ping((slot) => this.workers.of(slot).length > 0);
    // Finished jobs whose outcome waits to be committed (e.g. the database was busy) are still ours.
    const waiting = this.pending.filter((o) => o.kind !== 'release' && o.job.abortReason !== 'lost').map((o) => o.job);
    return this.workers
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
        const slot = this.workers.slotOf(e.attempt);
        if (e.attempt.live && slot) this.workers.abort(slot, e.attempt, e.kind);
        return;
      }
      case 'reclaimed':
        e.ids.forEach((id) => this.markChanged(id));
        return this.wake();
      case 'failed':
        return this.machineryError(e.what, e.err);
    }
  }

  /** A cancel was requested in this process: if we hold the job, stop it now rather than at the next renewal. */
  cancelRequested(jobId: number): void {
    for (const { slot, job } of this.workers.held()) if (job.lease.id === jobId) this.workers.abort(slot, job, 'cancel');
  }

  // ---------------------------------------------------------------- the loop

  private enter(next: Mode): void {
    if (!TRANSITIONS[this.mode].includes(next)) throw new Error(`job runner: ${this.mode} → ${next} is not a transition`);
    this.mode = next;
  }

  /**
   * One cycle per turn of the event loop. A cycle asked for during this one (outcomes left over,
   * a result, a wake) runs on the next turn, after the I/O that arrived meanwhile: back-to-back
   * cycles over a backlog had blocked every user request for tens of ms.
   */
  private pump(): void {
    this.pumpState = 'cycling';
    let again: boolean;
    try {
      this.cycle(this.mode === 'running' && !this.o.paused);
    } finally {
      again = this.anotherCycleAsked();
      this.pumpState = 'idle';
    }
    if (again && this.mode !== 'stopped') this.wake();
    else this.checkFinished();
  }

  /** wake() during a cycle asks for one more (read through a method: the state changes behind TypeScript's back). */
  private anotherCycleAsked(): boolean {
    return this.pumpState === 'again';
  }

  private remainingBudget(): number {
    return this.o.maxJobs === undefined ? Infinity : this.o.maxJobs - this.stats.claimed;
  }

  /**
   * One write transaction: commit waiting outcomes (group commit) and, when `claim`, claim for the
   * workers that want work. Claimed jobs are handed over only once it has committed. On a
   * machinery error nothing is lost: the outcomes stay pending and the runner backs off.
   * False when nothing could be committed.
   */
  private cycle(claim: boolean): boolean {
    if (this.mode !== 'running' && this.mode !== 'stopping') return false;
    // Bounded: a cycle blocks main's event loop (see CycleBudget). Outcomes first.
    const items = this.cycleBudget.items();
    const committing = Math.min(this.pending.length, items);
    const wants =
      claim && this.remainingBudget() > 0
        ? planClaims(
            this.pool.slots,
            (s) => this.workers.of(s),
            this.workers.continuing,
            this.pending,
            (d) => this.pace.prefetch(d),
            committing,
          )
        : [];
    if (!this.pending.length && !wants.length) return true;
    const batch = this.pending.splice(0, committing);
    for (const o of batch) o.job.committing();
    const started = performance.now();
    if (this.pending.length) this.wake();
    let result: { settled: Settled; then: Claims };
    try {
      result = this.completer.commit(batch, () =>
        claimFor(wants, {
          transitions: this.o.transitions,
          registry: this.o.registry,
          leaseMs: this.o.leaseMs,
          onlyTypes: this.o.onlyTypes,
          queues: this.workers.all,
          budget: this.remainingBudget(),
          room: items - batch.length,
          prefetchOf: (d) => this.pace.prefetch(d),
        }),
      );
    } catch (err) {
      for (const o of batch) o.job.uncommitted();
      this.pending.unshift(...batch);
      this.machineryError(batch.length ? 'commit' : 'claim', err);
      return false;
    }
    this.backoff.recovered();
    const { claims, cut } = result.then;
    this.cycleBudget.spent(batch.length + claims.reduce((n, c) => n + c.rows.length, 0), performance.now() - started);
    this.afterCommit(batch, result.settled);
    // Workers whose claims did not fit in this cycle are served by the next.
    if (cut) this.wake();
    let idleUnserved = 0;
    for (const { want, rows } of claims) {
      if (rows.length) this.assign(want.slot, rows);
      else if (want.idle) idleUnserved++;
    }
    if (idleUnserved) this.workers.stealFor(idleUnserved);
    // Drained once an idle worker found nothing to claim; anything committed or claimed since
    // means that must be established again by a later claim.
    if (claims.some((c) => c.want.idle && !c.rows.length)) this.queueDrained = true;
    else if (batch.length || claims.length) this.queueDrained = false;
    return true;
  }

  private afterCommit(batch: Outcome[], done: Settled): void {
    this.stats.succeeded += done.succeeded;
    this.stats.failed += done.failed;
    this.stats.discarded += done.discarded;
    for (const note of done.notes) this.o.log.warn(note);
    for (const owner of done.succeededBy) {
      const slot = this.pool.slots.find((s) => s.owner === owner);
      if (slot) this.pool.succeeded(slot);
    }
    this.workers.continueAfterCommit(done.continued);
    for (const o of batch) {
      o.job.committed();
      this.markChanged(o.job.lease.id);
    }
  }

  private assign(slot: WorkerSlot, rows: JobRow[]): void {
    this.stats.claimed += rows.length;
    this.workers.hand(slot, rows);
    if (this.pending.length) this.wake();
  }

  // ---------------------------------------------------------------- worker messages and exits

  private onMessage(slot: WorkerSlot, msg: WorkerToMain): void {
    switch (msg.t) {
      case 'progress':
        return this.onProgress(slot, msg);
      case 'result':
        this.workers.takeResult(slot, msg);
        return this.wakeForResult();
      case 'results':
        for (const r of msg.results) this.workers.takeResult(slot, r);
        return this.wakeForResult();
      case 'revoked':
        if (!this.workers.revoked(slot, msg)) return;
        this.stats.handedBack++;
        return this.wake();
    }
  }

  private onProgress(slot: WorkerSlot, msg: Extract<WorkerToMain, { t: 'progress' }>): void {
    const job = this.workers.find(slot, msg.jobId, msg.attempt);
    if (job?.progress(msg.progress, msg.message ?? null, this.o)) this.markChanged(job.lease.id);
  }

  private onExit(slot: WorkerSlot, exit: SlotExit): void {
    this.workers.exited(slot, exit);
    if (this.pending.length) this.wake();
  }

  // ---------------------------------------------------------------- machinery errors

  private machineryError(what: string, err: unknown): void {
    if (!isMachineryError(err)) {
      // A bug, not the environment: still never let it kill the loop.
      this.o.log.error(`job runner ${what} failed: ${(err as Error)?.stack ?? String(err)}`);
    }
    this.countMachineryError(`${what}: ${describeMachineryError(err)}`);
    // Already backing off (or stopping): count it, but do not push the retry further out.
    if (this.mode !== 'running') return;
    this.enter('backing_off');
    const delayMs = this.backoff.wait(() => {
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

  // ---------------------------------------------------------------- bookkeeping

  private checkFinished(): void {
    if (this.pending.length || this.workers.busySlots().length) return;
    if (this.remainingBudget() <= 0 || (this.o.exitWhenIdle && this.queueDrained)) this.finishedResolve();
  }

  /** Told as they happen: the one coalescing of these is the listener's (core/job-changes.ts). */
  private markChanged(id: number): void {
    this.o.onJobsChanged?.([id]);
  }
}
