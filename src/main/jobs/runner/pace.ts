/**
 * How far ahead a worker is handed work, from how long its jobs take. A type's policy sets the
 * least a worker holds behind the job it runs (`prefetch`: 2 for OCR, whose jobs take seconds).
 * When a type's jobs turn out short, a worker holds up to AHEAD_MS of them instead: it then never
 * waits for main between top-ups, and each of main's transactions commits and claims many jobs
 * at once rather than two or three (each transaction costs main ~0.2 ms whatever it carries).
 * A job waiting behind them (a newer, higher-priority one) waits no longer than AHEAD_MS of work.
 * Types that hold nothing behind (`prefetch: 0`: an asynchronous load, a checkpointed job, a
 * long job) are never paced.
 */
import type { AnyJobType } from '../../../shared/jobs/define';

/** The work a worker holds behind its current job, in ms of measured handler time. */
export const AHEAD_MS = 20;
/** Never more than this many behind one job, however short: leases held, jobs an idle worker must take back. */
export const MAX_PREFETCH = 64;
/** Weight of the newest duration in the running average. */
const WEIGHT = 0.2;

export class JobPace {
  /** Per type: the smoothed handler time of one job, in ms. */
  private readonly ms = new Map<string, number>();

  /** A job of `type` ran for `ms` in its worker (the worker's own measure, without the trip through main). */
  record(type: string, ms: number | undefined): void {
    if (ms === undefined || !Number.isFinite(ms) || ms < 0) return;
    const was = this.ms.get(type);
    this.ms.set(type, was === undefined ? ms : was + WEIGHT * (ms - was));
  }

  /** How many jobs of this type a worker may hold behind the one it runs. */
  prefetch(definition: AnyJobType): number {
    const least = definition.policy.prefetch;
    if (least === 0) return 0;
    const ms = this.ms.get(definition.type);
    if (ms === undefined) return least;
    return Math.max(least, Math.min(MAX_PREFETCH, Math.floor(AHEAD_MS / Math.max(ms, AHEAD_MS / MAX_PREFETCH))));
  }

  /**
   * Jobs per `run` message: the type's hand-off, or everything claimed at once for a paced type
   * (a worker runs them one at a time either way; a message per job cost main ~10 µs each).
   */
  handOff(definition: AnyJobType): number {
    const paced = this.prefetch(definition);
    return paced > definition.policy.prefetch ? 1 + paced : Math.max(1, definition.policy.handOff);
  }
}
