/**
 * The jobs each worker holds, in order ([0] is the one it runs, the rest wait behind it), and how
 * they arrive and leave: handed over once claimed (or once an asynchronous load in main is ready),
 * the next step of a checkpointed job sent back to the worker that ran the last, a result or an
 * exit taking them off, a waiting job given back for an idle worker, a time limit or an abort.
 * It reads its workers' messages (results, progress, answers to a revoke) and tells the runner
 * what happened as one typed WorkerEvent: whatever ends here is `finished` with the Outcome the
 * runner commits; this part never touches the database.
 * When the worker count changes, a retiring worker gives back what waits and leaves once the job
 * it runs is done (`resize`).
 */
import type { JobAssignment, JobResultMessage, WorkerToMain } from '../../../shared/worker-protocol';
import type { JobRegistry } from '../registry';
import type { JobRow } from '../store/rows';
import type { Outcome, Settled } from './completer';
import { stealable } from './planning';
import { abortedWhileLoading, errorForExit, loadInput, prepareJob, type AbortReason, type Loaded } from './running-job';
import type { Attempt } from './attempt';
import type { SlotExit, WorkerPool, WorkerSlot } from './worker-pool';
import type { JobPace } from './pace';
import type { Clock } from '../clock';

/** What the queues ask of the runner that holds them, and how they tell it what happened. */
export interface WorkerQueuesHolder {
  /** False once the runner backs off or stops: nothing more is handed over. */
  readonly accepting: boolean;
  onWorkerEvent(e: WorkerEvent): void;
}

export type WorkerEvent =
  /** A worker process is ready for work (the pool started or replaced it). */
  | { kind: 'ready' }
  /** An attempt's life in a worker is over (a result, a failure, an exit, a give-back): commit its outcome. */
  | { kind: 'finished'; outcome: Outcome }
  /** A worker reported how far a job has got. */
  | { kind: 'progress'; attempt: Attempt; fraction: number; message: string | null }
  /** A worker process could not be started: a machinery error, counted. */
  | { kind: 'launch_failed'; message: string };

export interface WorkerQueuesOptions {
  registry: JobRegistry;
  pace: JobPace;
  heapMb: number;
  cancelGraceMs: number;
  unresponsiveMs: number;
  clock: Clock;
}

export class WorkerQueues {
  /** Per slot: the jobs handed to its process, in order (one more per slot the pool grows by). */
  readonly all: Attempt[][];
  /** Slots whose checkpointed job's next step is being prepared: it comes back to them. */
  readonly continuing = new Set<number>();

  constructor(
    private readonly pool: WorkerPool,
    private readonly holder: WorkerQueuesHolder,
    private readonly o: WorkerQueuesOptions,
  ) {
    this.all = Array.from({ length: pool.slots.length }, () => []);
  }

  of(slot: WorkerSlot): Attempt[] {
    return (this.all[slot.index] ??= []);
  }

  /** The slot whose worker holds the job; none once that worker retired and left. */
  slotOf(job: Attempt): WorkerSlot | undefined {
    return this.pool.slots.find((s) => s.owner === job.lease.claimedBy);
  }

  /**
   * The worker count changed (Settings). New slots take work from the next claim. A retiring
   * slot is claimed for no more; the jobs waiting in its worker are asked back (each returns
   * uncharged, for another worker to claim, unless it had already started), and its process is
   * dismissed once it holds nothing — the job it runs finishes first.
   */
  resize(size: number): void {
    for (const slot of this.pool.resize(size)) {
      this.revokeWaiting(slot, this.of(slot).slice(1));
      this.dismissIfIdle(slot);
    }
    while (this.all.length < this.pool.slots.length) this.all.push([]);
  }

  private dismissIfIdle(slot: WorkerSlot): void {
    if (slot.retiring && !this.of(slot).length) this.pool.dismiss(slot);
  }

  busySlots(): WorkerSlot[] {
    return this.pool.slots.filter((s) => this.of(s).length > 0);
  }

  held(): { slot: WorkerSlot; job: Attempt }[] {
    return this.pool.slots.flatMap((slot) => this.of(slot).map((job) => ({ slot, job })));
  }

  private find(slot: WorkerSlot, jobId: number, attempt: number): Attempt | undefined {
    return this.of(slot).find((j) => j.lease.id === jobId && j.lease.attempt === attempt);
  }

  // ---------------------------------------------------------------- arriving

  /** Hands freshly claimed rows to the slot's worker (JobPace.handOff jobs per message). */
  hand(slot: WorkerSlot, rows: JobRow[]): void {
    const assignments: JobAssignment[] = [];
    const queue = this.of(slot);
    for (const row of rows) {
      const prepared = prepareJob(row, { id: row.id, attempt: row.attempt, claimedBy: slot.owner }, this.o.registry);
      if ('error' in prepared) {
        this.end({ kind: 'fail', job: prepared.job, error: prepared.error });
        continue;
      }
      queue.push(prepared.job);
      if ('pending' in prepared) this.whenLoaded(slot, prepared.pending);
      else {
        prepared.job.handed();
        assignments.push({ jobId: row.id, attempt: row.attempt, type: row.type, input: prepared.input });
      }
    }
    // Also for a job still being prepared in main (an async load): its time limit counts from now.
    this.startTimeout(slot);
    if (assignments.length) {
      // Short jobs travel together, long ones one by one.
      const definition = this.o.registry.definition(assignments[0].type);
      const per = definition ? this.o.pace.handOff(definition) : 1;
      for (let i = 0; i < assignments.length; i += per) this.pool.send(slot, { t: 'run', jobs: assignments.slice(i, i + per) });
    }
  }

  /**
   * Checkpointed jobs whose step was just committed: their next step goes to the same worker, in
   * a task of its own (its read must not lengthen the commit's stall of main).
   */
  continueAfterCommit(continued: Settled['continued']): void {
    if (!continued.length) return;
    for (const c of continued) {
      c.job.nextStep(c.payload);
      const slot = this.slotOf(c.job);
      if (slot) this.continuing.add(slot.index);
    }
    setImmediate(() => this.continueJobs(continued));
  }

  private continueJobs(continued: Settled['continued']): void {
    for (const { job } of continued) {
      const slot = this.slotOf(job);
      if (slot) this.continuing.delete(slot.index);
    }
    for (const { job } of continued) {
      const slot = this.slotOf(job);
      const prepared = loadInput(job);
      if ('error' in prepared) {
        this.end({ kind: 'fail', job, error: prepared.error });
      } else if (!slot || !slot.alive || slot.retiring || !this.holder.accepting) {
        // The worker went away (or is retiring) in between: give the job back; it resumes from the checkpoint.
        this.release(job);
      } else {
        this.of(slot).push(job);
        this.startTimeout(slot);
        if ('pending' in prepared) this.whenLoaded(slot, prepared.pending);
        else this.sendRun(slot, job, prepared.input);
      }
    }
  }

  private sendRun(slot: WorkerSlot, job: Attempt, input: unknown): void {
    job.handed();
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
      job.loaded();
      const queue = this.of(slot);
      if (queue[0] !== job) return; // already given up (its worker exited, the runner stopped)
      const stopped = !slot.alive || !this.holder.accepting;
      const error = job.abortReason ? abortedWhileLoading(job) : 'error' in loaded ? loaded.error : null;
      if (!error && !stopped) return this.sendRun(slot, job, (loaded as { input: unknown }).input);
      queue.shift();
      if (!error || job.abortReason === 'shutdown') this.release(job);
      else this.end({ kind: 'fail', job, error });
      this.startTimeout(slot);
      this.dismissIfIdle(slot);
    });
  }

  // ---------------------------------------------------------------- what a worker says

  /** A message from the slot's worker (validated against the protocol by the pool). */
  onMessage(slot: WorkerSlot, msg: WorkerToMain): void {
    switch (msg.t) {
      case 'progress': {
        const attempt = this.find(slot, msg.jobId, msg.attempt);
        if (attempt)
          this.holder.onWorkerEvent({ kind: 'progress', attempt, fraction: msg.progress, message: msg.message ?? null });
        return;
      }
      case 'result':
        return this.takeResult(slot, msg);
      case 'results':
        for (const r of msg.results) this.takeResult(slot, r);
        return;
      case 'revoked':
        return this.revoked(slot, msg);
    }
  }

  // ---------------------------------------------------------------- leaving

  /** A worker's result: off its queue, its output checked (outside the commit's write lock). */
  private takeResult(slot: WorkerSlot, msg: JobResultMessage): void {
    const queue = this.of(slot);
    const i = queue.findIndex((j) => j.lease.id === msg.jobId && j.lease.attempt === msg.attempt);
    if (i < 0) return;
    const [job] = queue.splice(i, 1);
    this.o.pace.record(job.row.type, msg.ms);
    const output = msg.ok ? job.definition.output.safeParse(msg.output) : undefined;
    this.end({ kind: 'result', job, msg, output });
    if (i === 0) this.startTimeout(slot);
    this.dismissIfIdle(slot);
  }

  /** The worker's answer to a revoke: the job came back (given back uncharged), or it had started. */
  private revoked(slot: WorkerSlot, msg: Extract<WorkerToMain, { t: 'revoked' }>): void {
    const queue = this.of(slot);
    const i = queue.findIndex((j) => j.lease.id === msg.jobId && j.lease.attempt === msg.attempt);
    if (i < 0) return;
    if (!msg.ok) return queue[i].revokeRefused(); // it had started: it runs here after all
    const [job] = queue.splice(i, 1);
    this.release(job, 'handed_back');
    this.dismissIfIdle(slot);
  }

  /** The slot's process is gone: its running job failed (or is given back), the waiting ones go back. */
  exited(slot: WorkerSlot, exit: SlotExit): void {
    const [current, ...waiting] = this.of(slot).splice(0);
    if (current) {
      const leftCleanly = exit.kind === 'killed' && (exit.reason === 'shutdown' || exit.reason === 'retired');
      if (current.abortReason === 'shutdown' || leftCleanly) this.release(current);
      else if (current.abortReason !== 'lost') {
        const limits = { cancelGraceMs: this.o.cancelGraceMs, unresponsiveMs: this.o.unresponsiveMs };
        this.end({ kind: 'fail', job: current, error: errorForExit(current, exit, limits) });
      } else current.finish(); // its lease is someone else's now: nothing to commit
    }
    // Jobs handed over but not started cost nothing: they go back to the queue.
    for (const job of waiting) this.release(job);
    if (exit.kind === 'failed_to_launch') {
      const message = `A worker process failed to launch (code ${exit.exit.code}, signal ${exit.exit.signal})`;
      this.holder.onWorkerEvent({ kind: 'launch_failed', message });
    }
  }

  /**
   * Idle workers found nothing to claim while busy ones hold jobs they have not started (the
   * tail of a queue of long jobs): ask the busiest for up to half of its waiting jobs back. Each
   * comes back as a release, and the idle worker claims it in the next cycle.
   */
  stealFor(idle: number): void {
    for (let n = 0; n < idle; n++) {
      const donor = stealable(this.pool.slots, (s) => this.of(s));
      if (!donor) return;
      const waiting = this.of(donor)
        .slice(1)
        .filter((j) => !j.leaving);
      this.revokeWaiting(donor, waiting.slice(-Math.ceil(waiting.length / 2)));
    }
  }

  /** Asks the slot's worker to give back jobs it has not started (each answered by `revoked`). */
  private revokeWaiting(slot: WorkerSlot, jobs: Attempt[]): void {
    for (const job of jobs) {
      if (job.leaving) continue;
      job.revoke();
      this.pool.send(slot, { t: 'revoke', jobId: job.lease.id, attempt: job.lease.attempt });
    }
  }

  /** Stopping: nothing held may start; preparations in main stop. */
  markShutdown(): void {
    // No abort message and no kill timer: the pool stops the processes next.
    for (const q of this.all) for (const job of q) job.abort('shutdown', this.o.clock, 0, () => {});
  }

  /** Gives back whatever is still held (a process whose exit was not seen in time was SIGKILLed). */
  releaseAll(): void {
    for (const q of this.all) for (const job of q.splice(0)) this.release(job);
  }

  release(job: Attempt, event?: string): void {
    this.end({ kind: 'release', job, event });
  }

  /** The attempt's life here is over: its timers stop, and its outcome goes to be committed. */
  private end(outcome: Outcome): void {
    outcome.job.finish();
    this.holder.onWorkerEvent({ kind: 'finished', outcome });
  }

  // ---------------------------------------------------------------- time limits and aborts

  /** The job at the head of the slot's queue runs now: its time limit starts (once). */
  private startTimeout(slot: WorkerSlot): void {
    const job = this.of(slot)[0];
    job?.started(this.o.clock, () => this.abort(slot, job, 'timeout'));
  }

  abort(slot: WorkerSlot, job: Attempt, reason: AbortReason): void {
    const wasLoading = job.loading;
    // Killed after the grace only if the job is still executing in that process.
    const kill = () => this.of(slot)[0] === job && this.pool.kill(slot, reason);
    if (!job.abort(reason, this.o.clock, this.o.cancelGraceMs, kill)) return;
    // Still being prepared in main: nothing runs in the worker yet (the attempt stopped the preparation).
    if (wasLoading) return;
    this.pool.send(slot, { t: 'abort', jobId: job.lease.id, attempt: job.lease.attempt, reason });
  }
}
