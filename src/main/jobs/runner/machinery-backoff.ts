/**
 * How long the runner waits after a machinery error (a busy or full disk, a failed spawn) before
 * it tries again: doubling from 100 ms up to 10 s, back to nothing after a cycle that commits.
 * The runner's mode (running ⇄ backing_off) stays the runner's; this owns the delay and its timer.
 */
import { cancel, type Cancel, type Clock } from '../clock';

export class MachineryBackoff {
  private delayMs = 0;
  private timer?: Cancel;

  constructor(private readonly clock: Clock) {}

  /** Waits the next delay, then runs `retry`; returns the delay. */
  wait(retry: () => void): number {
    this.delayMs = Math.min(10_000, Math.max(100, this.delayMs * 2));
    this.timer = this.clock.after(this.delayMs, retry);
    return this.delayMs;
  }

  /** Something committed: the next error starts from the shortest delay again. */
  recovered(): void {
    this.delayMs = 0;
  }

  stop(): void {
    cancel(this.timer);
  }
}
