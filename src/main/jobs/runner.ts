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
import type { JobAssignment, WorkerToMain } from '../../shared/worker-protocol';
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
}

type Outcome =
  | { kind: 'result'; job: RunningJob; msg: Extract<WorkerToMain, { t: 'result' }> }
  | { kind: 'fail'; job: RunningJob; error: SerializedJobError }
  | { kind: 'release'; job: RunningJob };

class LeaseLost extends Error {}

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
  private readonly o: Required<Omit<RunnerOptions, 'maxJobs' | 'onJobsChanged' | 'runnerId' | 'workerEnv'>> &
    Pick<RunnerOptions, 'maxJobs' | 'onJobsChanged' | 'workerEnv'>;
  private readonly slots: Slot[] = [];
  private readonly pending: Outcome[] = [];
  private timers: NodeJS.Timeout[] = [];
  private pumpScheduled = false;
  private flushScheduled = false;
  private pumping = false;
  private pumpAgain = false;
  private machineryDelayMs = 0;
  private machineryTimer?: NodeJS.Timeout;
  private stopping = false;
  private started = false;
  private pingSeq = 0;
  private changed = new Set<number>();
  private readonly stats = { claimed: 0, succeeded: 0, failed: 0, discarded: 0, machineryErrors: 0, lastMachineryError: null as string | null };
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
      });
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
   * Stops claiming; in-flight jobs get `graceMs` to finish, then their leases are released
   * without charging a retry and the worker processes are stopped.
   */
  async stop(graceMs = 10_000): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    const deadline = Date.now() + graceMs;
    while (this.busySlots().length && Date.now() < deadline) await sleep(25);
    for (const slot of this.slots) {
      for (const job of slot.batch) {
        job.abortReason = 'shutdown';
        this.clearJobTimers(job);
        this.pending.push({ kind: 'release', job });
      }
      slot.batch = [];
    }
    this.flush();
    for (const slot of this.slots) {
      clearTimeout(slot.respawnTimer);
      if (slot.proc) {
        slot.killReason = 'shutdown';
        slot.proc.send({ t: 'shutdown' });
        const proc = slot.proc;
        setTimeout(() => proc.kill(), 1000).unref();
      }
    }
    clearTimeout(this.machineryTimer);
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

  /** New work may be ready (an enqueue in this process, a timer): claim without waiting for the poll. */
  wake(): void {
    if (this.pumpScheduled || this.stopping) return;
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
        this.claimForIdleSlots();
      } while (this.pumpAgain);
    } finally {
      this.pumping = false;
    }
    this.checkFinished();
  }

  private nothingClaimable = false;

  private claimForIdleSlots(): void {
    if (this.stopping || this.o.paused || this.machineryTimer) return;
    for (const slot of this.slots) {
      if (!slot.ready || slot.batch.length || this.remainingBudget() <= 0) continue;
      let rows: JobRow[];
      try {
        rows = this.o.store.claim(slot.claimedBy, 1, this.o.leaseMs);
        if (rows.length) {
          const spec = this.o.registry.spec(rows[0].type);
          const extra = Math.min((spec?.batchSize ?? 1) - 1, this.remainingBudget() - 1);
          if (extra > 0) rows = rows.concat(this.o.store.claim(slot.claimedBy, extra, this.o.leaseMs, rows[0].type));
        }
      } catch (err) {
        this.machineryError('claim', err);
        return;
      }
      this.nothingClaimable = rows.length === 0;
      if (!rows.length) return;
      this.stats.claimed += rows.length;
      this.assign(slot, rows);
    }
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
    if (this.pending.length) this.scheduleFlush();
  }

  /** Validates the payload and runs `load`; a job that cannot start fails with a readable reason. */
  private prepare(row: JobRow, lease: Lease): { job: RunningJob; input: unknown } | { job: RunningJob; error: SerializedJobError } {
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
      return { job, error: { kind: 'permanent', message: `Invalid payload for ${row.type}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}` } };
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
      this.scheduleRespawn(slot);
      return;
    }
    slot.proc = proc;
    slot.ready = false;
    slot.killReason = null;
    slot.lastPongAt = Date.now();
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
      case 'result': {
        const i = slot.batch.findIndex((j) => j.lease.id === msg.jobId && j.lease.attempt === msg.attempt);
        if (i < 0) return;
        const [job] = slot.batch.splice(i, 1);
        this.clearJobTimers(job);
        this.pending.push({ kind: 'result', job, msg });
        if (i === 0) this.startTimeout(slot);
        this.scheduleFlush();
        return;
      }
    }
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
    if (this.pending.length) this.scheduleFlush();
    if (reason !== 'shutdown') {
      slot.consecutiveCrashes++;
      if (!reason) this.o.log.warn(`worker ${slot.claimedBy} exited (code ${exit.code}, signal ${exit.signal}); replacing it`);
      this.scheduleRespawn(slot);
    }
  }

  private exitError(job: RunningJob, exit: WorkerExit, killReason: string | null): SerializedJobError {
    if (job.abortReason === 'cancel') return { kind: 'permanent', message: 'Cancelled' };
    if (job.abortReason === 'timeout' || killReason === 'timeout') {
      return {
        kind: 'retryable',
        message: `Timed out after ${Math.round(job.spec.timeoutMs / 1000)} s; the handler did not stop within ${Math.round(this.o.cancelGraceMs / 1000)} s, so its process was killed`,
      };
    }
    if (killReason === 'unresponsive') {
      return { kind: 'retryable', message: `The worker process stopped answering for ${Math.round(this.o.unresponsiveMs / 1000)} s and was killed` };
    }
    if (/heap out of memory|Reached heap limit|Allocation failed/i.test(exit.stderrTail)) {
      return {
        kind: 'retryable',
        message: `The worker process ran out of memory (heap limit ${this.o.heapMb} MB) while running this job`,
        stack: exit.stderrTail.slice(-2000),
      };
    }
    return {
      kind: 'retryable',
      message: `The worker process crashed while running this job (${exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`})`,
      stack: exit.stderrTail.slice(-2000) || undefined,
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
    if (!leases.length) return;
    try {
      const { lost, cancelRequested } = this.o.store.renew(leases, this.o.leaseMs);
      for (const l of lost) {
        const hit = byId.get(l.id)!;
        this.o.log.warn(`job ${l.id}: lease lost; its result will be discarded`);
        this.abort(hit.slot, hit.job, 'lost');
      }
      for (const l of cancelRequested) {
        const hit = byId.get(l.id)!;
        this.abort(hit.slot, hit.job, 'cancel');
      }
    } catch (err) {
      this.machineryError('lease renewal', err);
    }
  }

  private sweep(): void {
    try {
      const r = this.o.store.reclaimLapsed(this.runnerId);
      const ids = [...r.requeued, ...r.failed, ...r.cancelled];
      if (ids.length) {
        this.o.log.warn(`reclaimed ${ids.length} job(s) whose lease lapsed: ${ids.join(', ')}`);
        ids.forEach((id) => this.markChanged(id));
        this.wake();
      }
    } catch (err) {
      this.machineryError('lease sweep', err);
    }
  }

  // ---------------------------------------------------------------- committing outcomes

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      this.flush();
      this.wake();
    });
  }

  /** Group commit: every outcome waiting is written in one IMMEDIATE transaction. */
  private flush(): void {
    if (!this.pending.length || this.machineryTimer) return;
    const batch = this.pending.splice(0);
    const counters = { succeeded: 0, failed: 0, discarded: 0 };
    try {
      this.o.store.transaction(() => {
        for (const outcome of batch) this.settle(outcome, counters);
      });
    } catch (err) {
      this.pending.unshift(...batch);
      this.machineryError('commit', err);
      return;
    }
    this.machineryDelayMs = 0;
    this.stats.succeeded += counters.succeeded;
    this.stats.failed += counters.failed;
    this.stats.discarded += counters.discarded;
    for (const o of batch) this.markChanged(o.job.lease.id);
    this.checkFinished();
  }

  private settle(outcome: Outcome, counters: { succeeded: number; failed: number; discarded: number }): void {
    const { job } = outcome;
    const store = this.o.store;
    if (outcome.kind === 'release') {
      store.release(job.lease);
      return;
    }
    if (job.abortReason === 'lost') {
      counters.discarded++;
      this.o.log.warn(`job ${job.lease.id} attempt ${job.lease.attempt}: lease lost, result discarded`);
      return;
    }
    if (outcome.kind === 'fail') {
      this.recordFailure(job, outcome.error, counters);
      return;
    }
    const { msg } = outcome;
    if (job.abortReason === 'timeout') {
      this.recordFailure(job, { kind: 'retryable', message: `Timed out after ${Math.round(job.spec.timeoutMs / 1000)} s` }, counters);
      return;
    }
    if (!msg.ok) {
      this.recordFailure(job, msg.error, counters);
      return;
    }
    const output = job.spec.output.safeParse(msg.output);
    if (!output.success) {
      this.recordFailure(
        job,
        { kind: 'permanent', message: `The ${job.row.type} handler returned output that does not match its schema: ${output.error.issues.slice(0, 3).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}` },
        counters,
      );
      return;
    }
    try {
      // A savepoint: apply's writes and the success mark commit together or not at all.
      store.sqlite.transaction(() => {
        const summary = job.handler.apply(output.data, job.ctx);
        if (!store.markSuccess(job.lease, summary)) throw new LeaseLost();
      })();
      counters.succeeded++;
      if (this.slots.some((s) => s.claimedBy === job.lease.claimedBy)) {
        const slot = this.slots.find((s) => s.claimedBy === job.lease.claimedBy)!;
        slot.consecutiveCrashes = 0;
      }
    } catch (err) {
      if (err instanceof LeaseLost) {
        // Cancel requested while it ran: honour it; otherwise someone else owns the job now.
        if (!store.markCancelled(job.lease)) {
          counters.discarded++;
          this.o.log.warn(`job ${job.lease.id} attempt ${job.lease.attempt}: lease lost, result discarded`);
        }
        return;
      }
      if (isMachineryError(err)) throw err;
      const e = err as Error;
      const permanent = e?.name === 'PermanentJobError';
      this.recordFailure(job, { kind: permanent ? 'permanent' : 'retryable', message: `Could not save the result: ${e?.message ?? String(err)}`, stack: e?.stack }, counters);
    }
  }

  private recordFailure(job: RunningJob, error: SerializedJobError, counters: { failed: number; discarded: number }): void {
    const outcome = this.o.store.markFailure(job.lease, error);
    if (outcome === 'lost') {
      counters.discarded++;
      this.o.log.warn(`job ${job.lease.id} attempt ${job.lease.attempt}: lease lost, failure not recorded`);
    } else if (outcome === 'failed') {
      counters.failed++;
    }
  }

  private machineryError(what: string, err: unknown): void {
    if (!isMachineryError(err)) {
      // A bug, not the environment: still never let it kill the loop.
      this.o.log.error(`job runner ${what} failed: ${(err as Error)?.stack ?? String(err)}`);
    }
    this.stats.machineryErrors++;
    this.stats.lastMachineryError = `${what}: ${describeMachineryError(err)}`;
    this.machineryDelayMs = Math.min(10_000, Math.max(100, this.machineryDelayMs * 2));
    this.o.log.warn(`job runner ${what} failed (${this.stats.lastMachineryError}); backing off ${this.machineryDelayMs} ms`);
    clearTimeout(this.machineryTimer);
    this.machineryTimer = setTimeout(() => {
      this.machineryTimer = undefined;
      this.flush();
      this.wake();
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

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
