/** Pushed events to every connected renderer (Electron window or browser-mode socket). */
import type { EventName, EventPayload } from '../../shared/contract';
import { cancel, systemClock, type Cancel, type Clock } from '../jobs/clock';

export type EventListener = <N extends EventName>(name: N, payload: EventPayload<N>) => void;

export class EventHub {
  private readonly listeners = new Set<EventListener>();

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit<N extends EventName>(name: N, payload: EventPayload<N>): void {
    for (const l of this.listeners) {
      try {
        l(name, payload);
      } catch {
        /* one broken listener must not starve the others */
      }
    }
  }
}

/**
 * Collects changes and flushes them at most once per `intervalMs` on the given clock: a burst of
 * 10,000 job transitions becomes a handful of events. A change is never lost: one added while a
 * flush waits rides with it, one added after goes in the next, and a flush that throws (the
 * database busy while it counted) keeps its changes for a later try. Closed, it takes no more.
 */
export class Coalescer<T> {
  private items = new Set<T>();
  private timer?: Cancel;
  private lastFlush = -Infinity;
  private closed = false;

  constructor(
    private readonly intervalMs: number,
    private readonly flush: (items: T[]) => void,
    private readonly o: { clock?: Clock; onError?: (err: unknown) => void } = {},
  ) {}

  private get clock(): Clock {
    return this.o.clock ?? systemClock;
  }

  add(items: Iterable<T>): void {
    if (this.closed) return;
    for (const i of items) this.items.add(i);
    this.schedule();
  }

  /** Flushes at once, with whatever waits (even nothing): for a change the user asked for, such as a pause. */
  flushNow(): void {
    if (this.closed) return;
    cancel(this.timer);
    this.timer = undefined;
    this.deliver();
  }

  close(): void {
    this.closed = true;
    cancel(this.timer);
    this.timer = undefined;
    this.items.clear();
  }

  private schedule(): void {
    if (this.timer || this.closed || !this.items.size) return;
    const wait = Math.max(0, this.lastFlush + this.intervalMs - this.clock.now());
    this.timer = this.clock.after(
      wait,
      () => {
        this.timer = undefined;
        this.deliver();
      },
      { background: true },
    );
  }

  private deliver(): void {
    this.lastFlush = this.clock.now();
    const batch = [...this.items];
    this.items.clear();
    try {
      this.flush(batch);
    } catch (err) {
      for (const i of batch) this.items.add(i);
      this.o.onError?.(err);
      this.schedule();
    }
  }
}
