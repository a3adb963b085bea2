/**
 * When the runner's cycles run (what a cycle does is the runner's). At most one cycle per turn of
 * the event loop: a cycle asked for during one (outcomes left over, a result, a wake) runs on the
 * next turn, after the I/O that arrived meanwhile — back-to-back cycles over a backlog had blocked
 * every user request for tens of ms. A result may instead wait a short commit window for others.
 *
 * States: idle → scheduled → cycling (→ again: one more asked for) → idle; stopped takes no more.
 */

/**
 * While every worker still has work in hand, a result waits this long for others to commit with
 * it (group commit across workers): no worker waits meanwhile, and one transaction serves many.
 * Real time, not the runner's clock: it batches results; it is not a policy.
 */
const COMMIT_WINDOW_MS = 1;

export class CyclePump {
  private state: 'idle' | 'scheduled' | 'cycling' | 'again' = 'idle';
  private stopped = false;
  private windowTimer?: NodeJS.Timeout;

  constructor(
    /** One cycle. */
    private readonly cycle: () => void,
    /** After a cycle that asked for no other. */
    private readonly settled: () => void,
  ) {}

  /** A cycle on the next turn of the event loop (or one more after the cycle running now). */
  wake(): void {
    this.clearWindow();
    if (this.state === 'cycling') this.state = 'again';
    if (this.state !== 'idle' || this.stopped) return;
    this.state = 'scheduled';
    setImmediate(() => this.run());
  }

  /** A cycle within the commit window, unless one is already coming. */
  wakeWithinWindow(): void {
    if (this.windowTimer || this.state !== 'idle') return;
    this.windowTimer = setTimeout(() => this.wake(), COMMIT_WINDOW_MS);
  }

  clearWindow(): void {
    clearTimeout(this.windowTimer);
    this.windowTimer = undefined;
  }

  stop(): void {
    this.stopped = true;
    this.clearWindow();
  }

  private run(): void {
    this.state = 'cycling';
    let again: boolean;
    try {
      this.cycle();
    } finally {
      again = this.anotherAsked();
      this.state = 'idle';
    }
    if (again && !this.stopped) this.wake();
    else this.settled();
  }

  /** wake() during a cycle asks for one more (read through a method: the state changes behind TypeScript's back). */
  private anotherAsked(): boolean {
    return this.state === 'again';
  }
}
