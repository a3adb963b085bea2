/**
 * Time as a parameter of the job runtime. The runner, its lease keeper, worker queues and pool ask
 * this for the time and for their timers (polls, renewals, sweeps, backoffs, time limits), so a
 * test can advance time instead of sleeping to prove that nothing happened. Database timestamps
 * (leases, run_after) stay with JobTransitions' own `now`.
 */
export interface Clock {
  now(): number;
  /**
   * Runs `fn` once after `ms`; the returned function cancels it. A `background` timer does not
   * keep the process alive (a poll, a renewal); a job's time limit does.
   */
  after(ms: number, fn: () => void, o?: { background?: boolean }): Cancel;
  /** Runs `fn` every `ms` until cancelled; never keeps the process alive. */
  every(ms: number, fn: () => void): Cancel;
}

export type Cancel = () => void;

export const systemClock: Clock = {
  now: () => Date.now(),
  after(ms, fn, o) {
    const t = setTimeout(fn, ms);
    if (o?.background) t.unref();
    return () => clearTimeout(t);
  },
  every(ms, fn) {
    const t = setInterval(fn, ms);
    t.unref();
    return () => clearInterval(t);
  },
};

/** Cancels a timer that may not be set. */
export const cancel = (c: Cancel | undefined): void => c?.();
