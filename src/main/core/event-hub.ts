/** Pushed events to every connected renderer (Electron window or browser-mode socket). */
import type { EventName, EventPayload } from '../../shared/contract';

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
 * Collects changes and flushes them at most once per `intervalMs`: a burst of 10,000 job
 * transitions becomes a handful of events.
 */
export class Coalescer<T> {
  private items = new Set<T>();
  private timer?: NodeJS.Timeout;
  private lastFlush = 0;

  constructor(
    private readonly intervalMs: number,
    private readonly flush: (items: T[]) => void,
  ) {}

  add(items: Iterable<T>): void {
    for (const i of items) this.items.add(i);
    if (this.timer) return;
    const wait = Math.max(0, this.lastFlush + this.intervalMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.lastFlush = Date.now();
      const batch = [...this.items];
      this.items.clear();
      this.flush(batch);
    }, wait);
    this.timer.unref?.();
  }

  close(): void {
    clearTimeout(this.timer);
  }
}
