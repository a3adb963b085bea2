/**
 * When the archivist last asked main for something (any contract call: a click, a typed note, the
 * screen re-reading what it shows). Background work that holds main in stretches reads it to keep
 * those stretches short while someone is waiting on main's answers (the rebuild's pace), and to do
 * work nobody asked for while nobody is asking (warming the date readers). It is a signal, not a
 * lock: nothing waits on it.
 */
export class UserActivity {
  private lastRequestAt = -Infinity;

  /** `now` in ms on any monotonic scale (tests pass their own). */
  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Called by the dispatcher for every request, before anything else. */
  readonly noteRequest = (): void => {
    this.lastRequestAt = this.now();
  };

  /** Whether a request came in within the last `ms`. */
  activeWithin(ms: number): boolean {
    return this.now() - this.lastRequestAt < ms;
  }
}
