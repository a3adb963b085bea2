/**
 * A Clock that moves only when told (src/main/jobs/clock.ts). `advance(ms)` fires every timer
 * that falls due on the way, in order of due time, synchronously; what they set off
 * asynchronously (a cycle on the next turn, a worker's answer) is for the test to await.
 */
import type { Cancel, Clock } from '../../src/main/jobs/clock';

interface Timer {
  due: number;
  every: number | null;
  fn: () => void;
  seq: number;
}

export class ManualClock implements Clock {
  private t: number;
  private timers = new Set<Timer>();
  private seq = 0;

  constructor(start = Date.now()) {
    this.t = start;
  }

  now(): number {
    return this.t;
  }

  after(ms: number, fn: () => void): Cancel {
    return this.add({ due: this.t + Math.max(0, ms), every: null, fn, seq: this.seq++ });
  }

  every(ms: number, fn: () => void): Cancel {
    return this.add({ due: this.t + Math.max(1, ms), every: Math.max(1, ms), fn, seq: this.seq++ });
  }

  /** Moves time on by `ms`, firing what falls due (intervals as often as they fall due). */
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      const next = [...this.timers].filter((x) => x.due <= end).sort((a, b) => a.due - b.due || a.seq - b.seq)[0];
      if (!next) break;
      this.t = next.due;
      if (next.every === null) this.timers.delete(next);
      else next.due += next.every;
      next.fn();
    }
    this.t = end;
  }

  /** How many timers are set (a stopped runner leaves none). */
  pending(): number {
    return this.timers.size;
  }

  private add(timer: Timer): Cancel {
    this.timers.add(timer);
    return () => void this.timers.delete(timer);
  }
}

/** Resolves after every task already queued for the next turn of the event loop (a runner's cycle). */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
