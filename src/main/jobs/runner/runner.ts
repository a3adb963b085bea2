/**
 * The job runner: the scheduling loop over the runtime's parts. It plans claims (work handed
 * ahead to each worker so none waits on main), commits outcomes and claims together (Completer),
 * supervises worker processes (WorkerPool) and keeps leases (Housekeeping).
 *
 * Guarantees (see BRIEF §3): a job runs in at most one place at a time (claims are conditional
 * updates and every later write is fenced on owner+attempt); a result is either committed with
 * its job's success or discarded; a crashed or hung process costs its job one retry; a machinery
 * error (busy or full disk, spawn failure) backs off and is counted, never stops the loop.
 *
 * Modes: created → running ⇄ backing_off → stopping → stopped (asserted, see `enter`). Paused is
 * not a mode: a paused runner commits outcomes and renews leases but claims nothing.
 */
import type { JobAssignment, JobResultMessage, WorkerToMain } from '../../../shared/worker-protocol';
import type { JobRow } from '../store/rows';
import { describeMachineryError, isMachineryError } from '../machinery';
import { Completer, type Outcome, type Settled } from './completer';
import { LeaseKeeper } from './lease-keeper';
import { Housekeeping, newRunnerId } from './housekeeping';
import { silentLogger } from './logger';
import {
  abortedWhileLoading,
  errorForExit,
  loadInput,
  prepareJob,
  type AbortReason,
  type Loaded,
  type RunningJob,
} from './running-job';
import { WorkerPool, type SlotExit, type WorkerSlot } from './worker-pool';
import { claimFor, planClaims, stealable, type Want } from './planning';
import { TRANSITIONS, type Mode, type RunnerOptions, type RunnerStats } from './options';

export type { RunnerOptions, RunnerStats } from './options';

/**
 * A cycle blocks main's event loop (a user's click waits behind it), so it commits as many outcomes
 * as fit in CYCLE_BUDGET_MS at the cost measured so far — a no-op's success costs ~0.1 ms, an
 * import's metadata ~1 ms — and never more than MAX_OUTCOMES_PER_CYCLE.
 */
const CYCLE_BUDGET_MS = 4;
const MAX_OUTCOMES_PER_CYCLE = 64;
/**
 * While every worker still has work in hand, a result waits this long for others to commit with
 * it (group commit across workers): no worker waits meanwhile, and one transaction serves many.
 */
const COMMIT_WINDOW_MS = 1;

export class JobRunner {
  readonly runnerId: string;
  /** Resolves when `maxJobs` have finished or, with `exitWhenIdle`, when nothing is claimable; and on stop. */
  readonly finished: Promise<void>;
  private readonly o: Required<Omit<RunnerOptions, 'maxJobs' | 'onJobsChanged' | 'runnerId' | 'workerEnv' | 'onlyTypes'>> &
    Pick<RunnerOptions, 'maxJobs' | 'onJobsChanged' | 'onlyTypes'>;
  private mode: Mode = 'created';
  /** The pump: idle, a cycle scheduled on the next turn, a cycle running, or running with another asked for. */
  private pumpState: 'idle' | 'scheduled' | 'cycling' | 'again' = 'idle';
  private readonly pool: WorkerPool;
  private readonly completer: Completer;
  private readonly housekeeping: Housekeeping;
  private readonly leases: LeaseKeeper;
  /** Per slot: the jobs handed to its process, in order; [0] is the one it runs. */
  private readonly queues: RunningJob[][];
  private readonly pending: Outcome[] = [];
  /** Slots whose checkpointed job's next step is being prepared: it comes back to them. */
  private readonly continuing = new Set<number>();
  /** The last claim for an idle worker found nothing ready (cleared by anything committed or claimed since). */
  private queueDrained = false;
  private machineryDelayMs = 0;
  /** Smoothed cost of committing one outcome, in ms (sizes cycles). */
  private outcomeCostMs = 0.1;
  private backoffTimer?: NodeJS.Timeout;
  private windowTimer?: NodeJS.Timeout;
  private pollTimer?: NodeJS.Timeout;
  private changed = new Set<number>();
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
    this.o = {
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
      ...opts,
    } as JobRunner['o'];
    this.finished = new Promise((resolve) => (this.finishedResolve = resolve));
    this.queues = Array.from({ length: opts.concurrency }, () => []);
    this.completer = new Completer(opts.transitions, this.o.leaseMs, this.o.log);
    this.housekeeping = new Housekeeping({ ...opts, runnerId: this.runnerId, leaseMs: this.o.leaseMs });
    this.leases = new LeaseKeeper(
      this.housekeeping,
      {
        running: () => this.mode === 'running',
        held: () => this.pool.slots.flatMap((slot) => this.queue(slot).map((job) => ({ slot, job }))),
        // Finished jobs whose outcome waits to be committed (e.g. the database was busy) are still ours.
        committing: () =>
          this.pending.filter((o) => o.kind !== 'release' && o.job.abortReason !== 'lost').map((o) => o.job.lease),
        pingBusyWorkers: () => this.pool.ping((slot) => this.queue(slot).length > 0),
        flush: () => this.flush(),
        abort: (slot, job, reason) => this.abort(slot, job, reason),
        changed: (ids) => ids.forEach((id) => this.markChanged(id)),
        wake: () => this.wake(),
        machineryError: (what, err) => this.machineryError(what, err),
      },
      this.o,
    );
    this.pool = new WorkerPool({
      size: opts.concurrency,
      runnerId: this.runnerId,
      spawn: opts.spawn,
      heapMb: this.o.heapMb,
      env: opts.workerEnv ?? {},
      unresponsiveMs: this.o.unresponsiveMs,
      log: this.o.log,
      onReady: () => this.wake(),
      onMessage: (slot, msg) => this.onMessage(slot, msg),
      onExit: (slot, exit) => this.onExit(slot, exit),
      onSpawnError: (message) => this.countMachineryError(message),
    });
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
    this.pollTimer = setInterval(() => this.wake(), this.o.pollEveryMs);
    this.pollTimer.unref();
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
    clearInterval(this.pollTimer);
    clearTimeout(this.backoffTimer);
    clearTimeout(this.windowTimer);
    const deadline = Date.now() + graceMs;
    while (this.busySlots().length && Date.now() < deadline) await sleep(25);
    for (const q of this.queues)
      for (const job of q) {
        job.abortReason = 'shutdown';
        job.loading?.abort(new Error('shutdown'));
      }
    // onExit queues a release for every job a stopped process held.
    await this.pool.stop((slot) => this.queue(slot).length > 0);
    for (const q of this.queues) {
      // A process whose exit we did not see in time: release its jobs anyway (it was SIGKILLed).
      for (const job of q.splice(0)) this.release(job);
    }
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

  getStats(): RunnerStats {
    const workers = this.pool.health();
    return {
      runnerId: this.runnerId,
      workersAlive: workers.ready,
      workersConfigured: this.pool.slots.length,
      workersStarting: workers.starting,
      workersFailed: workers.failed,
      paused: this.o.paused,
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
    const someoneIdle = this.pool.slots.some((s) => s.ready && this.queue(s).length === 0);
    if (someoneIdle || this.pending.length >= this.outcomesPerCycle() || this.mode !== 'running') return this.wake();
    if (this.windowTimer || this.pumpState !== 'idle') return;
    this.windowTimer = setTimeout(() => this.wake(), COMMIT_WINDOW_MS);
  }

  /** A cancel was requested in this process: if we hold the job, stop it now rather than at the next renewal. */
  cancelRequested(jobId: number): void {
    for (const slot of this.pool.slots)
      for (const job of this.queue(slot)) if (job.lease.id === jobId) this.abort(slot, job, 'cancel');
  }

  // ---------------------------------------------------------------- the loop

  private enter(next: Mode): void {
    if (!TRANSITIONS[this.mode].includes(next)) throw new Error(`job runner: ${this.mode} → ${next} is not a transition`);
    this.mode = next;
  }

  private pump(): void {
    try {
      do {
        this.pumpState = 'cycling';
        this.cycle(this.mode === 'running' && !this.o.paused);
      } while (this.anotherCycleAsked());
    } finally {
      this.pumpState = 'idle';
    }
    this.checkFinished();
  }

  /** wake() during a cycle asks for one more (read through a method: the state changes behind TypeScript's back). */
  private anotherCycleAsked(): boolean {
    return this.pumpState === 'again';
  }

  private outcomesPerCycle(): number {
    return Math.max(1, Math.min(MAX_OUTCOMES_PER_CYCLE, Math.floor(CYCLE_BUDGET_MS / this.outcomeCostMs)));
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
    const wants =
      claim && this.remainingBudget() > 0 ? planClaims(this.pool.slots, (s) => this.queue(s), this.continuing, this.pending) : [];
    if (!this.pending.length && !wants.length) return true;
    // Bounded: a cycle blocks main's event loop (the UI's requests wait behind it).
    const batch = this.pending.splice(0, this.outcomesPerCycle());
    const started = performance.now();
    if (this.pending.length) this.wake();
    let result: { settled: Settled; then: { want: Want; rows: JobRow[] }[] };
    try {
      result = this.completer.commit(batch, () =>
        claimFor(wants, {
          transitions: this.o.transitions,
          registry: this.o.registry,
          leaseMs: this.o.leaseMs,
          onlyTypes: this.o.onlyTypes,
          queues: this.queues,
          budget: this.remainingBudget(),
        }),
      );
    } catch (err) {
      this.pending.unshift(...batch);
      this.machineryError(batch.length ? 'commit' : 'claim', err);
      return false;
    }
    this.machineryDelayMs = 0;
    if (batch.length) {
      // What an outcome costs here, smoothed: it sizes the next cycles (see CYCLE_BUDGET_MS).
      const each = (performance.now() - started) / batch.length;
      this.outcomeCostMs = 0.8 * this.outcomeCostMs + 0.2 * each;
    }
    this.afterCommit(batch, result.settled);
    let idleUnserved = 0;
    for (const { want, rows } of result.then) {
      if (rows.length) this.assign(want.slot, rows);
      else if (want.idle) idleUnserved++;
    }
    if (idleUnserved) this.stealForIdleWorkers(idleUnserved);
    // Drained once an idle worker found nothing to claim; anything committed or claimed since
    // means that must be established again by a later claim.
    if (result.then.some((c) => c.want.idle && !c.rows.length)) this.queueDrained = true;
    else if (batch.length || result.then.length) this.queueDrained = false;
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
    for (const o of batch) this.markChanged(o.job.lease.id);
    // In a task of its own: the next step's read must not lengthen this commit's stall of main.
    if (done.continued.length) {
      const continued = done.continued;
      for (const c of continued) this.continuing.add(this.slotOf(c.job).index);
      setImmediate(() => this.continueJobs(continued));
    }
  }

  /** Commits waiting outcomes without claiming (sweep, shutdown). */
  private flush(): void {
    this.cycle(false);
  }

  private assign(slot: WorkerSlot, rows: JobRow[]): void {
    this.stats.claimed += rows.length;
    const assignments: JobAssignment[] = [];
    const queue = this.queue(slot);
    for (const row of rows) {
      this.markChanged(row.id);
      const prepared = prepareJob(row, { id: row.id, attempt: row.attempt, claimedBy: slot.owner }, this.o.registry);
      if ('error' in prepared) {
        this.pending.push({ kind: 'fail', job: prepared.job, error: prepared.error });
        continue;
      }
      queue.push(prepared.job);
      if ('pending' in prepared) this.whenLoaded(slot, prepared.pending);
      else assignments.push({ jobId: row.id, attempt: row.attempt, type: row.type, input: prepared.input });
    }
    // Also for a job still being prepared in main (an async load): its time limit counts from now.
    this.startTimeout(slot);
    if (assignments.length) {
      // `handOff` jobs per message: short jobs travel together, long ones one by one.
      const per = Math.max(1, this.o.registry.definition(assignments[0].type)?.policy.handOff ?? 1);
      for (let i = 0; i < assignments.length; i += per) this.pool.send(slot, { t: 'run', jobs: assignments.slice(i, i + per) });
    }
    if (this.pending.length) this.wake();
  }

  /**
   * Idle workers found nothing to claim while busy ones hold jobs they have not started (the
   * tail of a queue of long jobs): ask the busiest for up to half of its waiting jobs back. Each
   * comes back as a release, and the idle worker claims it in the next cycle.
   */
  private stealForIdleWorkers(idle: number): void {
    for (let n = 0; n < idle; n++) {
      const donor = stealable(this.pool.slots, (s) => this.queue(s));
      if (!donor) return;
      const queue = this.queue(donor);
      const waiting = queue.slice(1).filter((j) => !j.revoking && !j.abortReason);
      for (const job of waiting.slice(-Math.ceil(waiting.length / 2))) {
        job.revoking = true;
        this.pool.send(donor, { t: 'revoke', jobId: job.lease.id, attempt: job.lease.attempt });
      }
    }
  }

  /** After the commit: runs the next step of each checkpointed job on the worker that ran the last one. */
  private continueJobs(continued: Settled['continued']): void {
    for (const { job } of continued) this.continuing.delete(this.slotOf(job).index);
    for (const { job, payload } of continued) {
      const slot = this.slotOf(job);
      job.row = { ...job.row, payload: JSON.stringify(payload) };
      job.ctx = { ...job.ctx, payload };
      job.timeoutTimer = job.killTimer = undefined;
      const prepared = loadInput(job);
      if ('error' in prepared) {
        this.pending.push({ kind: 'fail', job, error: prepared.error });
      } else if (!slot.alive || this.mode !== 'running') {
        // The worker went away in between: give the job back; it resumes from the checkpoint.
        job.loading?.abort(new Error('shutdown'));
        this.release(job);
      } else {
        this.queue(slot).push(job);
        this.startTimeout(slot);
        if ('pending' in prepared) this.whenLoaded(slot, prepared.pending);
        else this.sendRun(slot, job, prepared.input);
      }
    }
    if (this.pending.length) this.wake();
  }

  private sendRun(slot: WorkerSlot, job: RunningJob, input: unknown): void {
    this.pool.send(slot, { t: 'run', jobs: [{ jobId: job.lease.id, attempt: job.lease.attempt, type: job.row.type, input }] });
  }

  /**
   * An asynchronous load (see LoadContext): the job holds its place (and lease) at the head of
   * its worker's queue while main prepares it, and is handed over once ready — or fails, or is
   * given back, if it was stopped meanwhile.
   */
  private whenLoaded(slot: WorkerSlot, pending: Promise<Loaded>): void {
    void pending.then((loaded) => {
      const { job } = loaded;
      job.loading = undefined;
      const queue = this.queue(slot);
      if (queue[0] !== job) return; // already given up (its worker exited, the runner stopped)
      const stopped = !slot.alive || this.mode !== 'running';
      const error = job.abortReason ? abortedWhileLoading(job) : 'error' in loaded ? loaded.error : null;
      if (!error && !stopped) return this.sendRun(slot, job, (loaded as { input: unknown }).input);
      queue.shift();
      clearJobTimers(job);
      if (!error || job.abortReason === 'shutdown') this.release(job);
      else this.pending.push({ kind: 'fail', job, error });
      this.startTimeout(slot);
      this.wake();
    });
  }

  // ---------------------------------------------------------------- worker messages and exits

  private onMessage(slot: WorkerSlot, msg: WorkerToMain): void {
    switch (msg.t) {
      case 'progress':
        return this.onProgress(slot, msg);
      case 'result':
        this.onResult(slot, msg);
        return this.wakeForResult();
      case 'results':
        for (const r of msg.results) this.onResult(slot, r);
        return this.wakeForResult();
      case 'revoked': {
        const queue = this.queue(slot);
        const i = queue.findIndex((j) => j.lease.id === msg.jobId && j.lease.attempt === msg.attempt);
        if (i < 0) return;
        if (!msg.ok) {
          queue[i].revoking = false; // it had started: it runs here after all
          return;
        }
        const [job] = queue.splice(i, 1);
        this.stats.handedBack++;
        this.release(job, 'handed_back');
        return this.wake();
      }
    }
  }

  private onProgress(slot: WorkerSlot, msg: Extract<WorkerToMain, { t: 'progress' }>): void {
    const job = this.queue(slot).find((j) => j.lease.id === msg.jobId && j.lease.attempt === msg.attempt);
    const now = Date.now();
    if (!job || now - job.lastProgressWrite < 250) return;
    job.lastProgressWrite = now;
    try {
      if (!this.o.transitions.setProgress(job.lease, Math.max(0, Math.min(1, msg.progress)), msg.message ?? null)) {
        this.o.log.warn(`job ${job.lease.id}: progress write fenced off (lease lost)`);
      }
      this.markChanged(job.lease.id);
    } catch (err) {
      // Progress is advisory: a busy database must not disturb the job.
      this.o.log.warn(`job ${job.lease.id}: progress not saved: ${(err as Error).message}`);
    }
  }

  private onResult(slot: WorkerSlot, msg: JobResultMessage): void {
    const queue = this.queue(slot);
    const i = queue.findIndex((j) => j.lease.id === msg.jobId && j.lease.attempt === msg.attempt);
    if (i < 0) return;
    const [job] = queue.splice(i, 1);
    clearJobTimers(job);
    // Validated here, outside the commit transaction (keeps the write lock short).
    const output = msg.ok ? job.definition.output.safeParse(msg.output) : undefined;
    this.pending.push({ kind: 'result', job, msg, output });
    if (i === 0) this.startTimeout(slot);
  }

  private onExit(slot: WorkerSlot, exit: SlotExit): void {
    const [current, ...waiting] = this.queue(slot).splice(0);
    if (current) {
      clearJobTimers(current);
      if (current.abortReason === 'shutdown' || (exit.kind === 'killed' && exit.reason === 'shutdown')) this.release(current);
      else if (current.abortReason !== 'lost') {
        const limits = { heapMb: this.o.heapMb, cancelGraceMs: this.o.cancelGraceMs, unresponsiveMs: this.o.unresponsiveMs };
        this.pending.push({ kind: 'fail', job: current, error: errorForExit(current, exit, limits) });
      }
    }
    // Jobs handed over but not started cost nothing: they go back to the queue.
    for (const job of waiting) this.release(job);
    if (exit.kind === 'failed_to_launch')
      this.countMachineryError(`A worker process failed to launch (code ${exit.exit.code}, signal ${exit.exit.signal})`);
    if (this.pending.length) this.wake();
  }

  private release(job: RunningJob, event?: string): void {
    clearJobTimers(job);
    this.pending.push({ kind: 'release', job, event });
  }

  // ---------------------------------------------------------------- timeouts, aborts, leases

  private startTimeout(slot: WorkerSlot): void {
    const job = this.queue(slot)[0];
    if (!job || job.timeoutTimer) return;
    job.timeoutTimer = setTimeout(() => this.abort(slot, job, 'timeout'), job.definition.policy.timeoutMs);
  }

  private abort(slot: WorkerSlot, job: RunningJob, reason: AbortReason): void {
    if (job.abortReason) return;
    job.abortReason = reason;
    // Still being prepared in main: nothing runs in the worker yet, so only the preparation stops.
    if (job.loading) return job.loading.abort(new Error(reason));
    this.pool.send(slot, { t: 'abort', jobId: job.lease.id, attempt: job.lease.attempt, reason });
    job.killTimer = setTimeout(() => {
      // Only kill if the job is still executing in that process.
      if (this.queue(slot)[0] === job) this.pool.kill(slot, reason);
    }, this.o.cancelGraceMs);
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
    this.machineryDelayMs = Math.min(10_000, Math.max(100, this.machineryDelayMs * 2));
    this.o.log.warn(`job runner ${what} failed (${this.stats.lastMachineryError}); backing off ${this.machineryDelayMs} ms`);
    this.backoffTimer = setTimeout(() => {
      if (this.mode !== 'backing_off') return;
      this.enter('running');
      this.wake();
    }, this.machineryDelayMs);
  }

  private countMachineryError(message: string): void {
    this.stats.machineryErrors++;
    this.stats.lastMachineryError = message;
  }

  // ---------------------------------------------------------------- bookkeeping

  private queue(slot: WorkerSlot): RunningJob[] {
    return this.queues[slot.index];
  }

  private slotOf(job: RunningJob): WorkerSlot {
    return this.pool.slots.find((s) => s.owner === job.lease.claimedBy)!;
  }

  private busySlots(): WorkerSlot[] {
    return this.pool.slots.filter((s) => this.queue(s).length > 0);
  }

  private checkFinished(): void {
    if (this.pending.length || this.busySlots().length) return;
    if (this.remainingBudget() <= 0 || (this.o.exitWhenIdle && this.queueDrained)) this.finishedResolve();
  }

  private markChanged(id: number): void {
    if (!this.o.onJobsChanged) return;
    const first = this.changed.size === 0;
    this.changed.add(id);
    if (first) {
      queueMicrotask(() => {
        const ids = [...this.changed];
        this.changed.clear();
        this.o.onJobsChanged?.(ids);
      });
    }
  }
}

/** The job's life in this runner is over (or its worker took it): stop its timers and any preparation in main. */
function clearJobTimers(job: RunningJob): void {
  clearTimeout(job.timeoutTimer);
  clearTimeout(job.killTimer);
  job.loading?.abort(new Error('stopped'));
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
