/**
 * The job runner: claims jobs, hands them to worker processes, renews their leases while the
 * processes answer, and commits each outcome (apply + finalize + audit) in one transaction.
 *
 * Guarantees (see BRIEF §3): a job runs in at most one place at a time (claims are conditional
 * updates and every later write is fenced on owner+attempt); a result is either committed with
 * its job's success or discarded; a crashed or hung process costs its job one retry; a machinery
 * error (busy or full disk, spawn failure) backs off and is counted, never stops the loop.
 */
import crypto from 'node:crypto';
import os from 'node:os';
import type { SerializedJobError } from '../../shared/jobs/errors';
import type { JobSpec } from '../../shared/jobs/spec';
import type { JobAssignment, JobResultMessage, WorkerToMain } from '../../shared/worker-protocol';
import type { JobContext, JobRegistry, MainJobType } from './registry';
import type { JobRow, JobStore, Lease } from './store';
import type { SpawnWorker, WorkerExit, WorkerProcess } from './worker-process';
import { isMachineryError, describeMachineryError } from './machinery';

export interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

export interface RunnerOptions {
  store: JobStore;
  registry: JobRegistry;
  spawn: SpawnWorker;
  concurrency: number;
  runnerId?: string;
  heapMb?: number;
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
  /** Finished jobs older than this are pruned (audit events stay). Default: the library's `jobRetentionDays` setting. */
  retentionMs?: number | (() => number);
  /** How often finished jobs are pruned (checked at the lease sweep). */
  pruneEveryMs?: number;
  paused?: boolean;
  log?: Logger;
  onJobsChanged?(ids: number[]): void;
}

interface RunningJob {
  lease: Lease;
  row: JobRow;
  spec: JobSpec<any, any>;
  handler: MainJobType;
  ctx: JobContext<any>;
  timeoutTimer?: NodeJS.Timeout;
  killTimer?: NodeJS.Timeout;
  abortReason?: 'cancel' | 'timeout' | 'lost' | 'shutdown';
  lastProgressWrite: number;
}

interface Slot {
  index: number;
  claimedBy: string;
  proc: WorkerProcess | null;
  ready: boolean;
  lastPongAt: number;
  /** Jobs handed to the process, in order; batch[0] is the one executing. */
  batch: RunningJob[];
  consecutiveCrashes: number;
  killReason: string | null;
  respawnTimer?: NodeJS.Timeout;
  /** Resolves when the current process has exited (and its jobs were settled). */
  exited: Promise<void>;
  onExited: () => void;
}

type Outcome =
  | {
      kind: 'result';
      job: RunningJob;
      msg: JobResultMessage;
      output?:
        { success: true; data: unknown } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
    }
  | { kind: 'fail'; job: RunningJob; error: SerializedJobError }
  | { kind: 'release'; job: RunningJob };

/** Finished jobs deleted per sweep, so pruning a large backlog never blocks main for long. */
const PRUNE_BATCH = 2000;

/** Outcomes committed per cycle (see `cycle`): ~1 ms of work on a slow disk, far below a UI frame. */
const MAX_OUTCOMES_PER_CYCLE = 64;

class LeaseLost extends Error {}
/** Abandons a fast-path group commit so it is redone with a savepoint per outcome. */
class Redo extends Error {}

interface Settled {
  succeeded: number;
  failed: number;
  discarded: number;
  /** Log lines, written only once the transaction has committed. */
  notes: string[];
  /** claimedBy of each success (resets that slot's crash-loop count). */
  succeededBy: string[];
  /** Jobs that checkpointed and go on with their next step once the transaction commits. */
  continued: { job: RunningJob; payload: unknown }[];
}

export interface RunnerStats {
  runnerId: string;
  workersAlive: number;
  workersConfigured: number;
  paused: boolean;
  claimed: number;
  succeeded: number;
  failed: number;
  discarded: number;
  machineryErrors: number;
  lastMachineryError: string | null;
}

export class JobRunner {
  readonly runnerId: string;
  private readonly o: Required<Omit<RunnerOptions, 'maxJobs' | 'onJobsChanged' | 'runnerId' | 'workerEnv' | 'retentionMs'>> &
    Pick<RunnerOptions, 'maxJobs' | 'onJobsChanged' | 'workerEnv' | 'retentionMs'>;
  private readonly slots: Slot[] = [];
  private readonly slotsByOwner = new Map<string, Slot>();
  private readonly pending: Outcome[] = [];
  private timers: NodeJS.Timeout[] = [];
  private pumpScheduled = false;
  private pumping = false;
  private pumpAgain = false;
  private machineryDelayMs = 0;
  private machineryTimer?: NodeJS.Timeout;
  private stopping = false;
  private started = false;
  private pingSeq = 0;
  private changed = new Set<number>();
  private readonly stats = {
    claimed: 0,
    succeeded: 0,
    failed: 0,
    discarded: 0,
    machineryErrors: 0,
    lastMachineryError: null as string | null,
  };
  private finishedResolve!: () => void;
  /** Resolves when `maxJobs` have finished or, with `exitWhenIdle`, when nothing is claimable. */
  readonly finished: Promise<void>;

  constructor(opts: RunnerOptions) {
    this.runnerId = opts.runnerId ?? `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`;
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
    for (let i = 0; i < opts.concurrency; i++) {
      this.slots.push({
        index: i,
        claimedBy: `${this.runnerId}/w${i}`,
        proc: null,
        ready: false,
        lastPongAt: 0,
        batch: [],
        consecutiveCrashes: 0,
        killReason: null,
        exited: Promise.resolve(),
        onExited: () => {},
      });
      this.slotsByOwner.set(this.slots[i].claimedBy, this.slots[i]);
    }
  }

  // ---------------------------------------------------------------- lifecycle

  start(): void {
    if (this.started) return;
    this.started = true;
    for (const slot of this.slots) this.spawn(slot);
    this.sweep();
    this.timers.push(setInterval(() => this.renewLeases(), this.o.renewEveryMs));
    this.timers.push(setInterval(() => this.sweep(), this.o.sweepEveryMs));
    this.timers.push(setInterval(() => this.wake(), this.o.pollEveryMs));
    for (const t of this.timers) t.unref();
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

  private stopPromise?: Promise<void>;
  private stopped = false;

  private async doStop(graceMs: number): Promise<void> {
    this.stopping = true;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    const deadline = Date.now() + graceMs;
    while (this.busySlots().length && Date.now() < deadline) await sleep(25);
    // Idle processes are asked to exit; busy ones (a job still running past the grace) are killed.
    // onExit then queues a release for every job they held.
    for (const slot of this.slots) {
      clearTimeout(slot.respawnTimer);
      const proc = slot.proc;
      if (!proc) continue;
      slot.killReason = 'shutdown';
      for (const job of slot.batch) job.abortReason = 'shutdown';
      if (slot.batch.length) proc.kill();
      else {
        proc.send({ t: 'shutdown' });
        setTimeout(() => proc.kill(), 1000).unref();
      }
    }
    await Promise.race([Promise.all(this.slots.map((s) => s.exited)), sleep(3000)]);
    for (const slot of this.slots) {
      // A process whose exit we did not see in time: release its jobs anyway (it was SIGKILLed).
      for (const job of slot.batch) {
        job.abortReason = 'shutdown';
        this.clearJobTimers(job);
        this.pending.push({ kind: 'release', job });
      }
      slot.batch = [];
    }
    clearTimeout(this.machineryTimer);
    this.machineryTimer = undefined;
    // Cycles are bounded: keep committing until everything is written or the database refuses.
    while (this.pending.length && !this.machineryTimer) this.flush();
    if (this.pending.length) {
      this.o.log.error(`could not release ${this.pending.length} job(s) on shutdown; their leases will lapse and be reclaimed`);
    }
    clearTimeout(this.machineryTimer);
    this.stopped = true;
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
    return {
      runnerId: this.runnerId,
      workersAlive: this.slots.filter((s) => s.ready).length,
      workersConfigured: this.slots.length,
      paused: this.o.paused,
      ...this.stats,
    };
  }

  /**
   * New work may be ready (an enqueue in this process, a timer) or outcomes wait to be committed:
   * run a cycle on the next turn of the event loop instead of waiting for the poll.
   */
  wake(): void {
    if (this.pumpScheduled || this.stopped) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  /** A cancel was requested in this process: if we hold the job, stop it now rather than at the next renewal. */
  cancelRequested(jobId: number): void {
    for (const slot of this.slots) for (const job of slot.batch) if (job.lease.id === jobId) this.abort(slot, job, 'cancel');
  }

  // ---------------------------------------------------------------- claiming

  private remainingBudget(): number {
    return this.o.maxJobs === undefined ? Infinity : this.o.maxJobs - this.stats.claimed;
  }

  private pump(): void {
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.pumpAgain = false;
        this.cycle(!this.stopping && !this.o.paused);
      } while (this.pumpAgain);
    } finally {
      this.pumping = false;
    }
    this.checkFinished();
  }

  private nothingClaimable = false;
  /** Workers whose checkpointed job's next step is about to be handed back to them. */
  private readonly continuing = new Set<string>();

  /**
   * Workers that need jobs: every ready worker with nothing to do, and a worker running a
   * batchable type once half of its batch is done (pipelining: it never waits for main to commit
   * and claim). A type with batchSize 1 is never claimed ahead: its jobs would hold leases while
   * waiting behind a long job.
   */
  private claimWanted(): { slot: Slot; type?: string; max: number }[] {
    const out: { slot: Slot; type?: string; max: number }[] = [];
    for (const slot of this.slots) {
      if (!slot.ready || !slot.proc) continue;
      // A step of a continuing job is being committed or its next step prepared: it comes back to this worker.
      if (this.continuing.has(slot.claimedBy)) continue;
      if (this.pending.some((o) => o.kind === 'result' && o.job.handler?.mayContinue && o.job.lease.claimedBy === slot.claimedBy))
        continue;
      if (!slot.batch.length) {
        out.push({ slot, max: Infinity });
        continue;
      }
      const last = slot.batch[slot.batch.length - 1];
      const size = last.spec.batchSize;
      if (size <= 1 || slot.batch.length > size / 2 || slot.batch.some((j) => j.abortReason)) continue;
      out.push({ slot, type: last.row.type, max: size - slot.batch.length });
    }
    return out;
  }

  /** Inside the cycle's transaction: claims for the workers in `wanted` (no side effects but the database). */
  private claimWithin(wanted: { slot: Slot; type?: string; max: number }[]): { slot: Slot; rows: JobRow[]; idle: boolean }[] {
    const out: { slot: Slot; rows: JobRow[]; idle: boolean }[] = [];
    let budget = this.remainingBudget();
    let exhausted = false;
    for (const w of wanted) {
      if (budget <= 0) break;
      if (w.type === undefined && exhausted) continue;
      const rows = this.o.store.claim(w.slot.claimedBy, this.o.leaseMs, {
        max: Math.min(w.max, budget),
        type: w.type,
        batchSize: this.batchSizeOf,
      });
      if (w.type === undefined && !rows.length) exhausted = true;
      budget -= rows.length;
      out.push({ slot: w.slot, rows, idle: w.type === undefined });
    }
    return out;
  }

  private readonly batchSizeOf = (type: string) => this.o.registry.spec(type)?.batchSize ?? 1;

  /**
   * One write transaction: commit every outcome waiting (group commit) and, when `claim`, claim
   * for the workers that need jobs. Claimed jobs are handed to their workers only once the
   * transaction has committed. On a machinery error nothing is lost: the outcomes stay pending
   * and the runner backs off.
   *
   * Outcomes take a fast path with no savepoint per job. If an apply throws, or a fence fails after
   * an apply wrote something, the whole transaction is rolled back and redone with a savepoint per
   * outcome, so a job's writes never commit without its success mark and one broken outcome
   * cannot block the others. Every write about a running job stays fenced on status, owner and
   * attempt (see JobStore).
   */
  private cycle(claim: boolean): void {
    if (this.stopped || this.machineryTimer) return;
    const wanted = claim && this.remainingBudget() > 0 ? this.claimWanted() : [];
    if (!this.pending.length && !wanted.length) return;
    // Bounded: a cycle blocks main's event loop (the UI's requests wait behind it), so a backlog
    // is committed over several short cycles rather than one long one.
    const batch = this.pending.splice(0, MAX_OUTCOMES_PER_CYCLE);
    if (this.pending.length) this.wake();
    let done: Settled | undefined;
    let claims: { slot: Slot; rows: JobRow[]; idle: boolean }[] = [];
    const body = (careful: boolean) => () => {
      done = batch.length ? this.settleAll(batch, careful) : undefined;
      claims = wanted.length ? this.claimWithin(wanted) : [];
    };
    try {
      try {
        this.o.store.transaction(body(false));
      } catch (err) {
        if (!(err instanceof Redo)) throw err;
        this.o.store.transaction(body(true));
      }
    } catch (err) {
      this.pending.unshift(...batch);
      this.machineryError(batch.length ? 'commit' : 'claim', err);
      return;
    }
    this.machineryDelayMs = 0;
    if (done) {
      this.stats.succeeded += done.succeeded;
      this.stats.failed += done.failed;
      this.stats.discarded += done.discarded;
      for (const note of done.notes) this.o.log.warn(note);
      for (const claimedBy of done.succeededBy) {
        const slot = this.slotsByOwner.get(claimedBy);
        if (slot) slot.consecutiveCrashes = 0;
      }
      for (const o of batch) this.markChanged(o.job.lease.id);
      // In a task of its own: the next step's read must not lengthen this commit's stall of main.
      if (done.continued.length) {
        const continued = done.continued;
        for (const c of continued) this.continuing.add(c.job.lease.claimedBy);
        setImmediate(() => this.continueJobs(continued));
      }
    }
    for (const c of claims) {
      if (!c.rows.length) continue;
      this.stats.claimed += c.rows.length;
      this.assign(c.slot, c.rows);
    }
    // Idle once a worker with nothing to do found nothing to claim; anything committed or
    // claimed since means idleness must be established again by a later claim.
    if (claims.some((c) => c.idle && !c.rows.length)) this.nothingClaimable = true;
    else if (batch.length || claims.length) this.nothingClaimable = false;
  }

  /** Commits waiting outcomes without claiming (sweep, shutdown). */
  private flush(): void {
    this.cycle(false);
  }

  private assign(slot: Slot, rows: JobRow[]): void {
    const assignments: JobAssignment[] = [];
    for (const row of rows) {
      const lease: Lease = { id: row.id, attempt: row.attempt, claimedBy: slot.claimedBy };
      this.markChanged(row.id);
      const prepared = this.prepare(row, lease);
      if ('error' in prepared) {
        this.pending.push({ kind: 'fail', job: prepared.job, error: prepared.error });
        continue;
      }
      slot.batch.push(prepared.job);
      assignments.push({ jobId: row.id, attempt: row.attempt, type: row.type, input: prepared.input });
    }
    if (assignments.length) {
      this.startTimeout(slot);
      slot.proc!.send({ t: 'run', jobs: assignments });
    }
    if (this.pending.length) this.wake();
  }

  /** Validates the payload and runs `load`; a job that cannot start fails with a readable reason. */
  private prepare(
    row: JobRow,
    lease: Lease,
  ): { job: RunningJob; input: unknown } | { job: RunningJob; error: SerializedJobError } {
    const spec = this.o.registry.spec(row.type);
    const handler = this.o.registry.handler(row.type);
    const job: RunningJob = {
      lease,
      row,
      spec: spec!,
      handler: handler!,
      ctx: { id: row.id, attempt: row.attempt, payload: undefined, subject: row.subject },
      lastProgressWrite: 0,
    };
    if (!spec || !handler) {
      return { job, error: { kind: 'permanent', message: `No handler is registered for job type ${row.type}` } };
    }
    let payload: unknown;
    try {
      payload = JSON.parse(row.payload);
    } catch {
      return { job, error: { kind: 'permanent', message: 'The job payload is not valid JSON' } };
    }
    const parsed = spec.payload.safeParse(payload);
    if (!parsed.success) {
      return {
        job,
        error: {
          kind: 'permanent',
          message: `Invalid payload for ${row.type}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`,
        },
      };
    }
    job.ctx.payload = parsed.data;
    try {
      return { job, input: handler.load(job.ctx, row) };
    } catch (err) {
      const e = err as Error;
      const permanent = e?.name === 'PermanentJobError';
      return { job, error: { kind: permanent ? 'permanent' : 'retryable', message: e?.message ?? String(err), stack: e?.stack } };
    }
  }

  // ---------------------------------------------------------------- worker processes

  private spawn(slot: Slot): void {
    if (this.stopping) return;
    let proc: WorkerProcess;
    try {
      proc = this.o.spawn({
        heapMb: this.o.heapMb,
        name: slot.claimedBy,
        env: { ...(this.o.workerEnv ?? {}) },
      });
    } catch (err) {
      this.stats.machineryErrors++;
      this.stats.lastMachineryError = `Could not start a worker process: ${(err as Error).message}`;
      this.o.log.error(this.stats.lastMachineryError);
      slot.consecutiveCrashes++; // back off: a spawn that throws would otherwise retry in a tight loop
      this.scheduleRespawn(slot);
      return;
    }
    slot.proc = proc;
    slot.ready = false;
    slot.killReason = null;
    slot.lastPongAt = Date.now();
    slot.exited = new Promise((resolve) => (slot.onExited = resolve));
    proc.onMessage((m) => this.onMessage(slot, proc, m as WorkerToMain));
    proc.onExit((exit) => this.onExit(slot, proc, exit));
  }

  private scheduleRespawn(slot: Slot): void {
    if (this.stopping) return;
    // Crash-loop backoff: immediately the first time, then 0.5 s doubling up to 30 s.
    const n = slot.consecutiveCrashes;
    const delay = n <= 1 ? 0 : Math.min(30_000, 500 * 2 ** (n - 2));
    slot.respawnTimer = setTimeout(() => this.spawn(slot), delay);
  }

  private onMessage(slot: Slot, proc: WorkerProcess, msg: WorkerToMain): void {
    if (slot.proc !== proc) return;
    switch (msg.t) {
      case 'ready':
        slot.ready = true;
        slot.lastPongAt = Date.now();
        this.wake();
        return;
      case 'pong':
        slot.lastPongAt = Date.now();
        return;
      case 'started':
        return;
      case 'progress': {
        const job = slot.batch.find((j) => j.lease.id === msg.jobId && j.lease.attempt === msg.attempt);
        if (!job) return;
        const now = Date.now();
        if (now - job.lastProgressWrite < 250) return;
        job.lastProgressWrite = now;
        try {
          if (!this.o.store.setProgress(job.lease, Math.max(0, Math.min(1, msg.progress)), msg.message ?? null)) {
            this.o.log.warn(`job ${job.lease.id}: progress write fenced off (lease lost)`);
          }
          this.markChanged(job.lease.id);
        } catch (err) {
          // Progress is advisory: a busy database must not disturb the job.
          this.o.log.warn(`job ${job.lease.id}: progress not saved: ${(err as Error).message}`);
        }
        return;
      }
      case 'result':
        this.onResult(slot, msg);
        this.wake();
        return;
      case 'results':
        for (const r of msg.results) this.onResult(slot, r);
        this.wake();
        return;
    }
  }

  private onResult(slot: Slot, msg: JobResultMessage): void {
    const i = slot.batch.findIndex((j) => j.lease.id === msg.jobId && j.lease.attempt === msg.attempt);
    if (i < 0) return;
    const [job] = slot.batch.splice(i, 1);
    this.clearJobTimers(job);
    // Validated here, outside the commit transaction (keeps the write lock short).
    const output = msg.ok ? job.spec.output.safeParse(msg.output) : undefined;
    this.pending.push({ kind: 'result', job, msg, output });
    if (i === 0) this.startTimeout(slot);
  }

  private onExit(slot: Slot, proc: WorkerProcess, exit: WorkerExit): void {
    if (slot.proc !== proc) return;
    slot.proc = null;
    slot.ready = false;
    const reason = slot.killReason;
    const [current, ...waiting] = slot.batch;
    slot.batch = [];
    if (current) {
      this.clearJobTimers(current);
      if (current.abortReason === 'shutdown' || reason === 'shutdown') {
        this.pending.push({ kind: 'release', job: current });
      } else if (current.abortReason !== 'lost') {
        this.pending.push({ kind: 'fail', job: current, error: this.exitError(current, exit, reason) });
      }
    }
    for (const job of waiting) {
      this.clearJobTimers(job);
      this.pending.push({ kind: 'release', job });
    }
    if (this.pending.length) this.wake();
    if (reason !== 'shutdown') {
      // Only real crashes count towards the crash-loop backoff, not kills we asked for.
      if (!reason || reason === 'unresponsive') slot.consecutiveCrashes++;
      if (!reason) this.o.log.warn(`worker ${slot.claimedBy} exited (code ${exit.code}, signal ${exit.signal}); replacing it`);
      this.scheduleRespawn(slot);
    }
    slot.onExited();
  }

  private exitError(job: RunningJob, exit: WorkerExit, killReason: string | null): SerializedJobError {
    if (job.abortReason === 'cancel') return { kind: 'permanent', message: 'Cancelled' };
    if (job.abortReason === 'timeout' || killReason === 'timeout') {
      return {
        kind: 'retryable',
        message: `Timed out after ${seconds(job.spec.timeoutMs)}; the handler did not stop within ${seconds(this.o.cancelGraceMs)}, so its process was killed`,
      };
    }
    if (killReason === 'unresponsive') {
      return {
        kind: 'retryable',
        message: `The worker process stopped answering for ${seconds(this.o.unresponsiveMs)} and was killed`,
        retryAfterMs: 0,
      };
    }
    if (/heap out of memory|Reached heap limit|Allocation failed/i.test(exit.stderrTail)) {
      return {
        kind: 'retryable',
        message: `The worker process ran out of memory (heap limit ${this.o.heapMb} MB) while running this job`,
        stack: exit.stderrTail.slice(-2000),
        retryAfterMs: 0,
      };
    }
    return {
      kind: 'retryable',
      message: `The worker process crashed while running this job (${exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`})`,
      stack: exit.stderrTail.slice(-2000) || undefined,
      retryAfterMs: 0,
    };
  }

  private kill(slot: Slot, reason: string): void {
    if (!slot.proc) return;
    slot.killReason = reason;
    slot.proc.kill();
  }

  // ---------------------------------------------------------------- timeouts, aborts, leases

  private startTimeout(slot: Slot): void {
    const job = slot.batch[0];
    if (!job || job.timeoutTimer) return;
    job.timeoutTimer = setTimeout(() => this.abort(slot, job, 'timeout'), job.spec.timeoutMs);
  }

  private abort(slot: Slot, job: RunningJob, reason: NonNullable<RunningJob['abortReason']>): void {
    if (job.abortReason) return;
    job.abortReason = reason;
    slot.proc?.send({ t: 'abort', jobId: job.lease.id, attempt: job.lease.attempt, reason });
    job.killTimer = setTimeout(() => {
      // Only kill if the job is still executing in that process.
      if (slot.batch[0] === job) this.kill(slot, reason);
    }, this.o.cancelGraceMs);
  }

  private clearJobTimers(job: RunningJob): void {
    clearTimeout(job.timeoutTimer);
    clearTimeout(job.killTimer);
  }

  private renewLeases(): void {
    const now = Date.now();
    const leases: Lease[] = [];
    const byId = new Map<number, { slot: Slot; job: RunningJob }>();
    for (const slot of this.slots) {
      if (!slot.proc) continue;
      slot.proc.send({ t: 'ping', seq: ++this.pingSeq });
      if (!slot.batch.length) continue;
      if (now - slot.lastPongAt > this.o.unresponsiveMs) {
        this.o.log.warn(`worker ${slot.claimedBy} has not answered for ${now - slot.lastPongAt} ms; killing it`);
        this.kill(slot, 'unresponsive');
        continue;
      }
      for (const job of slot.batch) {
        leases.push(job.lease);
        byId.set(job.lease.id, { slot, job });
      }
    }
    // Finished jobs whose outcome waits to be committed (e.g. the database was busy) are still ours.
    for (const o of this.pending) if (o.kind !== 'release' && o.job.abortReason !== 'lost') leases.push(o.job.lease);
    if (!leases.length) return;
    try {
      const { lost, cancelRequested } = this.o.store.renew(leases, this.o.leaseMs);
      for (const l of lost) {
        this.o.log.warn(`job ${l.id}: lease lost; its result will be discarded`);
        const hit = byId.get(l.id);
        if (hit) this.abort(hit.slot, hit.job, 'lost');
      }
      for (const l of cancelRequested) {
        const hit = byId.get(l.id);
        if (hit) this.abort(hit.slot, hit.job, 'cancel');
      }
    } catch (err) {
      this.machineryError('lease renewal', err);
    }
  }

  private lastPruneAt = 0;

  /**
   * Takes back jobs whose lease lapsed (their runner died or hung) and prunes old finished jobs.
   * Our own outcomes are committed and our own leases renewed first, so a job of ours that merely
   * waited on a busy database is never mistaken for an abandoned one; while backing off from a
   * machinery error the sweep waits too.
   */
  private sweep(): void {
    if (this.machineryTimer || this.stopping) return;
    this.flush();
    if (this.started && this.timers.length) this.renewLeases();
    if (this.machineryTimer) return;
    try {
      const r = this.o.store.reclaimLapsed(this.runnerId, (row, message) => {
        const handler = this.o.registry.handler(row.type);
        if (!handler?.onFailed) return;
        let payload: unknown;
        try {
          payload = JSON.parse(row.payload);
        } catch {
          return;
        }
        handler.onFailed({ id: row.id, attempt: row.attempt, payload, subject: row.subject }, message);
      });
      const ids = [...r.requeued, ...r.failed, ...r.cancelled];
      if (ids.length) {
        this.o.log.warn(`reclaimed ${ids.length} job(s) whose lease lapsed: ${ids.join(', ')}`);
        ids.forEach((id) => this.markChanged(id));
        this.wake();
      }
    } catch (err) {
      this.machineryError('lease sweep', err);
      return;
    }
    if (Date.now() - this.lastPruneAt >= this.o.pruneEveryMs) {
      this.lastPruneAt = Date.now();
      try {
        const r = this.o.retentionMs;
        const keepMs = typeof r === 'function' ? r() : (r ?? this.o.store.configuredRetentionMs());
        const n = this.o.store.prune(keepMs, PRUNE_BATCH);
        if (n) this.o.log.info(`pruned ${n} finished job(s) older than ${Math.round(keepMs / 86_400_000)} day(s)`);
        if (n === PRUNE_BATCH) this.lastPruneAt = 0; // more to do: continue at the next sweep
      } catch (err) {
        this.machineryError('pruning finished jobs', err);
      }
    }
  }

  // ---------------------------------------------------------------- committing outcomes

  private settleAll(batch: Outcome[], careful: boolean): Settled {
    const done: Settled = { succeeded: 0, failed: 0, discarded: 0, notes: [], succeededBy: [], continued: [] };
    const sqlite = this.o.store.sqlite;
    for (const outcome of batch) {
      if (!careful) {
        this.settle(outcome, done, false);
        continue;
      }
      const one: Settled = { succeeded: 0, failed: 0, discarded: 0, notes: [], succeededBy: [], continued: [] };
      try {
        sqlite.transaction(() => this.settle(outcome, one, true))();
      } catch (err) {
        if (isMachineryError(err)) throw err;
        // A bug in a type's hook or in the store: record the job as failed rather than retrying
        // the whole group commit forever.
        const { job } = outcome;
        const message = `Circa could not record this job's outcome: ${(err as Error)?.message ?? String(err)}`;
        this.o.log.error(`job ${job.lease.id}: ${message}\n${(err as Error)?.stack ?? ''}`);
        one.succeeded = one.failed = one.discarded = 0;
        one.succeededBy = [];
        one.continued = [];
        try {
          sqlite.transaction(() => {
            if (this.o.store.markFailure(job.lease, { kind: 'permanent', message, stack: (err as Error)?.stack }) === 'failed')
              one.failed++;
          })();
        } catch (err2) {
          if (isMachineryError(err2)) throw err2;
          one.notes.push(`job ${job.lease.id}: outcome dropped; its lease will lapse and it will be retried`);
        }
      }
      done.succeeded += one.succeeded;
      done.failed += one.failed;
      done.discarded += one.discarded;
      done.notes.push(...one.notes);
      done.succeededBy.push(...one.succeededBy);
      done.continued.push(...one.continued);
    }
    return done;
  }

  private settle(outcome: Outcome, done: Settled, careful: boolean): void {
    const { job } = outcome;
    const store = this.o.store;
    if (outcome.kind === 'release') {
      store.release(job.lease);
      return;
    }
    if (job.abortReason === 'lost') {
      done.discarded++;
      done.notes.push(`job ${job.lease.id} attempt ${job.lease.attempt}: lease lost, result discarded`);
      return;
    }
    if (outcome.kind === 'fail') {
      this.recordFailure(job, outcome.error, done);
      return;
    }
    const { msg, output } = outcome;
    if (job.abortReason === 'timeout') {
      this.recordFailure(job, { kind: 'retryable', message: `Timed out after ${seconds(job.spec.timeoutMs)}` }, done);
      return;
    }
    if (!msg.ok) {
      this.recordFailure(job, msg.error, done);
      return;
    }
    if (!output?.success) {
      const issues = output?.error.issues ?? [];
      this.recordFailure(
        job,
        {
          kind: 'permanent',
          message: `The ${job.row.type} handler returned output that does not match its schema: ${issues
            .slice(0, 3)
            .map((i) => `${i.path.map(String).join('.')}: ${i.message}`)
            .join('; ')}`,
        },
        done,
      );
      return;
    }
    if (!careful) {
      // Fast path: apply, then the fenced success mark. Anything unusual rolls the whole group
      // commit back (Redo) and it is redone with savepoints.
      let committed: boolean;
      try {
        committed = this.applyAndMarkSuccess(job, output.data, done);
      } catch (err) {
        if (isMachineryError(err)) throw err;
        throw new Redo();
      }
      if (!committed) throw new Redo();
      return;
    }
    try {
      // A savepoint: apply's writes and the success mark commit together or not at all.
      const one: Settled = { succeeded: 0, failed: 0, discarded: 0, notes: [], succeededBy: [], continued: [] };
      store.sqlite.transaction(() => {
        if (!this.applyAndMarkSuccess(job, output.data, one)) throw new LeaseLost();
      })();
      done.succeeded += one.succeeded;
      done.succeededBy.push(...one.succeededBy);
      done.continued.push(...one.continued);
    } catch (err) {
      if (err instanceof LeaseLost) {
        // Cancel requested while it ran: honour it; otherwise someone else owns the job now.
        if (!store.markCancelled(job.lease)) {
          done.discarded++;
          done.notes.push(`job ${job.lease.id} attempt ${job.lease.attempt}: lease lost, result discarded`);
        }
        return;
      }
      if (isMachineryError(err)) throw err;
      const e = err as Error;
      const permanent = e?.name === 'PermanentJobError';
      this.recordFailure(
        job,
        {
          kind: permanent ? 'permanent' : 'retryable',
          message: `Could not save the result: ${e?.message ?? String(err)}`,
          stack: e?.stack,
        },
        done,
      );
    }
  }

  /**
   * In the cycle's transaction: the type's `apply` and the fenced success mark. False when the
   * fence failed; the caller then rolls back whatever apply wrote.
   */
  private applyAndMarkSuccess(job: RunningJob, data: unknown, done: Settled): boolean {
    const result = job.handler.apply(data, job.ctx);
    if (result !== null && typeof result === 'object') {
      // A checkpoint: the job goes on with the next step in the same lease once this commits.
      const progress = Math.max(0, Math.min(1, result.progress));
      if (!this.o.store.checkpoint(job.lease, result.continueWith, progress, result.summary, this.o.leaseMs)) return false;
      done.continued.push({ job, payload: result.continueWith });
      return true;
    }
    if (!this.o.store.markSuccess(job.lease, result, job.row.idempotency_key != null)) return false;
    done.succeeded++;
    done.succeededBy.push(job.lease.claimedBy);
    return true;
  }

  /** After the commit: runs the next step of each checkpointed job on the worker that ran the last one. */
  private continueJobs(continued: Settled['continued']): void {
    for (const { job } of continued) this.continuing.delete(job.lease.claimedBy);
    for (const { job, payload } of continued) {
      const slot = this.slotsByOwner.get(job.lease.claimedBy);
      const row = { ...job.row, payload: JSON.stringify(payload) };
      job.row = row;
      job.ctx = { ...job.ctx, payload };
      job.timeoutTimer = undefined;
      job.killTimer = undefined;
      let input: unknown;
      try {
        input = job.handler.load(job.ctx, row);
      } catch (err) {
        const e = err as Error;
        this.pending.push({
          kind: 'fail',
          job,
          error: {
            kind: e?.name === 'PermanentJobError' ? 'permanent' : 'retryable',
            message: e?.message ?? String(err),
            stack: e?.stack,
          },
        });
        continue;
      }
      if (!slot?.proc || this.stopping) {
        // The worker went away in between: give the job back; it resumes from the checkpoint.
        this.pending.push({ kind: 'release', job });
        continue;
      }
      slot.batch.push(job);
      this.startTimeout(slot);
      slot.proc.send({ t: 'run', jobs: [{ jobId: job.lease.id, attempt: job.lease.attempt, type: job.row.type, input }] });
    }
    if (this.pending.length) this.wake();
  }

  private recordFailure(job: RunningJob, error: SerializedJobError, counters: Settled): void {
    const outcome = this.o.store.markFailure(job.lease, error);
    if (outcome === 'lost') {
      counters.discarded++;
      counters.notes.push(`job ${job.lease.id} attempt ${job.lease.attempt}: lease lost, failure not recorded`);
    } else if (outcome === 'failed') {
      counters.failed++;
      // The type's own bookkeeping for a final failure (e.g. the photo shows "metadata failed"), same transaction.
      if (job.ctx.payload !== undefined) job.handler?.onFailed?.(job.ctx, error.message);
    }
  }

  private machineryError(what: string, err: unknown): void {
    if (!isMachineryError(err)) {
      // A bug, not the environment: still never let it kill the loop.
      this.o.log.error(`job runner ${what} failed: ${(err as Error)?.stack ?? String(err)}`);
    }
    this.stats.machineryErrors++;
    this.stats.lastMachineryError = `${what}: ${describeMachineryError(err)}`;
    // Already backing off: count it, but do not push the retry further out (a failing renewal
    // every few hundred ms would otherwise keep postponing the commit that is waiting).
    if (this.machineryTimer || this.stopped) return;
    this.machineryDelayMs = Math.min(10_000, Math.max(100, this.machineryDelayMs * 2));
    this.o.log.warn(`job runner ${what} failed (${this.stats.lastMachineryError}); backing off ${this.machineryDelayMs} ms`);
    this.machineryTimer = setTimeout(() => {
      this.machineryTimer = undefined;
      this.pump();
    }, this.machineryDelayMs);
  }

  // ---------------------------------------------------------------- notifications

  private busySlots(): Slot[] {
    return this.slots.filter((s) => s.batch.length > 0);
  }

  private checkFinished(): void {
    if (this.pending.length || this.busySlots().length) return;
    if (this.remainingBudget() <= 0 || (this.o.exitWhenIdle && this.nothingClaimable)) this.finishedResolve();
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

/** "500 ms", "30 s": readable at any scale (a sub-second limit must not read "0 s"). */
function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
