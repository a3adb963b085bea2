/**
 * One attempt at a job in this runner, from its claim until its outcome is committed. Its state
 * is named and every change is asserted; it owns its timers (time limit, kill grace) and its
 * preparation in main, so whoever ends it stops them all at once.
 *
 * Its states, and which part moves it through each, are drawn at the top of ./runner.ts (the
 * life of one job, top to bottom); `NEXT` below is where each state may go. Any live state
 * (claimed to aborting) may become finished: a job can fail before it starts, or its process can
 * end under it.
 */
import type { AnyJobType } from '../../../shared/jobs/define';
import type { JobContext, MainHalf } from '../registry';
import type { JobRow, Lease } from '../store/rows';
import type { JobTransitions } from '../store/transitions';
import type { Logger } from '../../logger';
import { cancel, type Cancel, type Clock } from '../clock';

/** Progress is written at most this often per attempt (it is advisory, and each write is a transaction). */
const PROGRESS_EVERY_MS = 250;

/** Why the runtime asked a job to stop. */
export type AbortReason = 'cancel' | 'timeout' | 'lost' | 'shutdown';

export type AttemptState =
  'claimed' | 'loading' | 'handed' | 'running' | 'revoking' | 'aborting' | 'finished' | 'committing' | 'ended';

const LIVE: readonly AttemptState[] = ['claimed', 'loading', 'handed', 'running', 'revoking', 'aborting'];

/** Where each state may go. */
const NEXT: Record<AttemptState, readonly AttemptState[]> = {
  claimed: ['loading', 'handed', 'running', 'aborting', 'finished'],
  loading: ['handed', 'running', 'aborting', 'finished'],
  handed: ['running', 'revoking', 'aborting', 'finished'],
  running: ['aborting', 'finished'],
  revoking: ['handed', 'running', 'aborting', 'finished'],
  // A shutdown may overtake a cancel or a timeout already asked for.
  aborting: ['aborting', 'finished'],
  finished: ['committing'],
  committing: ['finished', 'ended', 'claimed'],
  ended: [],
};

export class Attempt {
  private s: AttemptState = 'claimed';
  /** Why it was asked to stop; kept once it has finished (the commit words its failure by it). */
  private reason?: AbortReason;
  private timeLimit?: Cancel;
  private killGrace?: Cancel;
  /** Set while an asynchronous `load` prepares it in main (see LoadContext); aborting it stops that. */
  private preparation?: AbortController;
  /** When its last progress was written (progress writes are throttled). */
  private lastProgressWrite = 0;

  constructor(
    readonly lease: Lease,
    public row: JobRow,
    readonly definition: AnyJobType,
    readonly half: MainHalf<AnyJobType>,
    public ctx: JobContext<unknown>,
  ) {}

  get state(): AttemptState {
    return this.s;
  }

  get abortReason(): AbortReason | undefined {
    return this.reason;
  }

  /** Asked to stop or asked back: no more work should be planned behind it. */
  get leaving(): boolean {
    return this.s === 'aborting' || this.s === 'revoking';
  }

  get loading(): boolean {
    return this.s === 'loading';
  }

  /** Between its claim and its end in a worker: it can still be asked to stop. */
  get live(): boolean {
    return LIVE.includes(this.s);
  }

  /**
   * Its worker reported progress: written, fenced on its lease, unless one was written less than
   * PROGRESS_EVERY_MS ago. True when written. A busy database must not disturb the job: progress
   * is advisory, so a failed write is only logged.
   */
  progress(fraction: number, message: string | null, io: { transitions: JobTransitions; clock: Clock; log: Logger }): boolean {
    const now = io.clock.now();
    if (now - this.lastProgressWrite < PROGRESS_EVERY_MS) return false;
    this.lastProgressWrite = now;
    try {
      if (!io.transitions.setProgress(this.lease, Math.max(0, Math.min(1, fraction)), message)) {
        io.log.warn(`job ${this.lease.id}: progress write fenced off (lease lost)`);
      }
      return true;
    } catch (err) {
      io.log.warn(`job ${this.lease.id}: progress not saved: ${(err as Error).message}`);
      return false;
    }
  }

  /** Main prepares it asynchronously; `controller` stops the preparation. */
  load(controller: AbortController): void {
    this.to('loading');
    this.preparation = controller;
  }

  /** Its input was sent to its worker. */
  handed(): void {
    if (this.s === 'running') return;
    // At the head of its worker's queue already (its load finished there): it runs.
    this.to(this.timeLimit ? 'running' : 'handed');
  }

  /** It reached the head of its worker's queue: its time limit counts from now (once). */
  started(clock: Clock, onTimeLimit: () => void): void {
    if (this.timeLimit || !LIVE.includes(this.s)) return;
    this.timeLimit = clock.after(this.definition.policy.timeoutMs, onTimeLimit);
    if (this.s === 'handed' || this.s === 'claimed') this.to('running');
  }

  /** Asked back from its worker for an idle one. */
  revoke(): void {
    this.to('revoking');
  }

  /** Its worker had already started it: it runs there after all. */
  revokeRefused(): void {
    if (this.s !== 'revoking') return;
    this.to(this.timeLimit ? 'running' : 'handed');
  }

  /**
   * Asked to stop. False when it already was (the first reason stands, except that a shutdown
   * overtakes any). `kill` runs after the grace if it has not finished by then.
   */
  abort(reason: AbortReason, clock: Clock, graceMs: number, kill: () => void): boolean {
    if (this.s === 'aborting' && reason !== 'shutdown') return false;
    if (!LIVE.includes(this.s)) return false;
    this.to('aborting');
    this.reason = reason;
    if (this.preparation) {
      // Still being prepared in main: nothing runs in a worker yet, so only the preparation stops.
      this.preparation.abort(new Error(reason));
      return true;
    }
    if (reason !== 'shutdown') {
      cancel(this.killGrace);
      this.killGrace = clock.after(graceMs, kill);
    }
    return true;
  }

  /** Its outcome is known (or it is given back): its timers and any preparation stop. */
  finish(): void {
    this.to('finished');
    this.stopTimers();
  }

  /** Taken into a group commit. */
  committing(): void {
    this.to('committing');
  }

  /** The commit failed (a machinery error): it waits for the next. */
  uncommitted(): void {
    this.to('finished');
  }

  /** Its outcome is committed (a checkpointed one is on its next step already, claimed again). */
  committed(): void {
    if (this.s === 'committing') this.to('ended');
  }

  /** A checkpoint was committed: the next step, with its payload, starts as a fresh claim in the same lease. */
  nextStep(payload: unknown): void {
    this.to('claimed');
    this.row = { ...this.row, payload: JSON.stringify(payload) };
    this.ctx = { ...this.ctx, payload };
    this.timeLimit = this.killGrace = undefined;
    this.preparation = undefined;
  }

  /** Its async load settled: the preparation is no longer abortable. */
  loaded(): void {
    this.preparation = undefined;
  }

  private stopTimers(): void {
    cancel(this.timeLimit);
    cancel(this.killGrace);
    this.preparation?.abort(new Error('stopped'));
    this.preparation = undefined;
  }

  private to(next: AttemptState): void {
    if (!NEXT[this.s].includes(next)) {
      throw new Error(`job ${this.lease.id} attempt ${this.lease.attempt}: ${this.s} → ${next} is not a transition`);
    }
    this.s = next;
  }
}
