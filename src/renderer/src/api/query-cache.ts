/**
 * The renderer's server state in one place: every answer a screen shows is an entry here, keyed
 * by call and input, shared by every component that asks the same thing, and re-read when an
 * event main pushes says it changed. The cache alone listens to those events (one subscription
 * per event for the whole window), so a burst of `jobs.changed` re-reads each query once instead
 * of every component refetching on its own.
 *
 * Every entry counts the changes it knows of (an event that concerns it, a re-read asked for, an
 * answer written in) and remembers how many the answer on screen reflects. An answer may replace
 * only data it is not older than, and `current()` waits for an answer asked after every change
 * known when it was called: what an action acts on (undo's "latest action") is never an answer
 * read before a change the screen already shows.
 *
 * Why not TanStack Query: every query here is one typed contract call, invalidated by one of a
 * few pushed events; what we use of such a library (a keyed cache, de-duplicated requests,
 * invalidation, stale-while-revalidate) is this file, with no dependency and no provider.
 */
import type { CallInput, CallName, CallOutput, EventName, EventPayload } from '../../../shared/contract';
import type { CallError, Result } from '../../../shared/result';

export interface QuerySnapshot<T> {
  data: T | undefined;
  error: CallError | undefined;
  loading: boolean;
}

export interface QueryOptions {
  /** Pushed events after which the answer is re-read. */
  invalidateOn?: readonly EventName[];
  /** Wait this long after an event before re-reading (more events in the meantime are one re-read). */
  settleMs?: number;
  /**
   * Re-read on an event only when it names one of these ids (`photos.changed`: photos,
   * `jobs.changed`: jobs); an event that says `all` always re-reads. Events not listed here: any.
   */
  about?: Partial<Record<EventName, readonly number[]>>;
}

/** The ids an event names, or 'all' (see QueryOptions.about). */
function namedIds(event: EventName, payload: unknown): readonly number[] | 'all' {
  const p = (payload ?? {}) as { ids?: number[]; all?: boolean; changedIds?: number[] };
  const ids = event === 'jobs.changed' ? p.changedIds : event === 'photos.changed' && !p.all ? p.ids : undefined;
  return ids ?? 'all';
}

/** What the cache needs of the client (src/renderer/src/api/client.ts). */
export interface CacheClient {
  call<N extends CallName>(name: N, input: CallInput<N>): Promise<Result<CallOutput<N>>>;
  on<N extends EventName>(name: N, listener: (payload: EventPayload<N>) => void): () => void;
}

interface Entry {
  name: CallName;
  input: unknown;
  snapshot: QuerySnapshot<unknown>;
  listeners: Set<() => void>;
  /** Events that re-read it, with the longest settle asked for each. */
  invalidateOn: Map<EventName, number>;
  /** Per event, the ids that concern it (the union of what its subscribers asked), or any. */
  about: Map<EventName, Set<number> | 'any'>;
  inFlight: boolean;
  /** Changes known to this entry (events that concern it, re-reads asked for, answers written in). */
  changes: number;
  /** How many of those the answer on screen reflects (the count when its request was sent). */
  shownChanges: number;
  /** The count when the request in flight was sent. */
  askedAt: number;
  /** Callers of `current()`, each waiting for an answer that reflects `upTo` changes. */
  waiters: { upTo: number; resolve(s: QuerySnapshot<unknown>): void }[];
  /** Asked again while a request was in flight: one more request when it lands. */
  again: boolean;
  settleTimer: ReturnType<typeof setTimeout> | undefined;
  dropTimer: ReturnType<typeof setTimeout> | undefined;
}

/** An entry nobody shows is kept this long (a screen opened again shows it at once while it is re-read). */
const KEEP_UNUSED_MS = 60_000;

export class QueryCache {
  private readonly entries = new Map<string, Entry>();
  private readonly eventSubscriptions = new Map<EventName, () => void>();
  private readonly mergers = new Map<CallName, (old: unknown, answer: unknown) => unknown>();
  /** Requests sent, for tests and the long-task measurement. */
  requests = 0;

  constructor(private readonly client: CacheClient) {}

  static key(name: CallName, input: unknown): string {
    return `${name} ${JSON.stringify(input)}`;
  }

  /** Starts showing `name(input)`: reads it if the cache has no answer yet. Returns the unsubscribe. */
  subscribe(name: CallName, input: unknown, opts: QueryOptions, listener: () => void): () => void {
    const entry = this.entry(name, input);
    clearTimeout(entry.dropTimer);
    entry.listeners.add(listener);
    for (const event of opts.invalidateOn ?? []) {
      entry.invalidateOn.set(event, Math.max(entry.invalidateOn.get(event) ?? 0, opts.settleMs ?? 0));
      const ids = opts.about?.[event];
      const known = entry.about.get(event);
      if (!ids || known === 'any') entry.about.set(event, 'any');
      else entry.about.set(event, new Set([...(known ?? []), ...ids]));
      this.listenTo(event);
    }
    const unread = entry.snapshot.data === undefined && entry.snapshot.error === undefined;
    if ((unread || entry.shownChanges < entry.changes) && !entry.inFlight) this.fetch(entry);
    return () => {
      entry.listeners.delete(listener);
      if (entry.listeners.size) return;
      entry.dropTimer = setTimeout(() => this.entries.delete(QueryCache.key(name, input)), KEEP_UNUSED_MS);
    };
  }

  snapshot(name: CallName, input: unknown): QuerySnapshot<unknown> {
    return this.entry(name, input).snapshot;
  }

  /** Reads `name(input)` again now (after an action that changed it). */
  refetch(name: CallName, input: unknown): void {
    const entry = this.entry(name, input);
    entry.changes++;
    this.fetch(entry);
  }

  /**
   * `name(input)` as it stands after every change known now: at once if the answer on screen
   * reflects them all, else the answer to a request sent after them (asked at once, not after a
   * settle time). For acting on server state, where an answer read before a change would be wrong.
   */
  current(name: CallName, input: unknown): Promise<QuerySnapshot<unknown>> {
    const entry = this.entry(name, input);
    const upTo = entry.changes;
    if (entry.shownChanges >= upTo && !entry.snapshot.loading) return Promise.resolve(entry.snapshot);
    if (!entry.inFlight || entry.askedAt < upTo) {
      clearTimeout(entry.settleTimer);
      entry.settleTimer = undefined;
      this.fetch(entry);
    }
    return new Promise((resolve) => entry.waiters.push({ upTo, resolve }));
  }

  /** The answer to `name(input)` as an event told it (no request): e.g. the job counts `jobs.changed` carries. */
  setData(name: CallName, input: unknown, data: unknown): void {
    const entry = this.entry(name, input);
    this.publish(entry, { data, error: undefined, loading: false }, ++entry.changes);
  }

  /**
   * Answers to `name` that events also write (through `update`) are merged, not replaced: an answer
   * that was sent before the last event must not undo it. `merge(old, answer)` says what to keep.
   */
  mergeAnswers(name: CallName, merge: (old: unknown, answer: unknown) => unknown): void {
    this.mergers.set(name, merge);
  }

  /** An event's snapshot of `name(input)`, merged with what the cache holds by its `mergeAnswers` rule. */
  update(name: CallName, input: unknown, next: unknown): void {
    const entry = this.entry(name, input);
    const merge = this.mergers.get(name);
    const data = merge ? merge(entry.snapshot.data, next) : next;
    this.publish(entry, { data, error: undefined, loading: false }, ++entry.changes);
  }

  /** Re-reads every answer on screen (the connection came back: events were lost meanwhile). */
  refetchAll(): void {
    for (const entry of this.entries.values()) {
      if (!entry.listeners.size) continue;
      entry.changes++;
      this.fetch(entry);
    }
  }

  /** An event arrived: each answer it concerns is re-read once its settle time has passed. */
  invalidate(event: EventName, payload?: unknown): void {
    const named = namedIds(event, payload);
    for (const entry of this.entries.values()) {
      const settle = entry.invalidateOn.get(event);
      if (settle === undefined) continue;
      const about = entry.about.get(event);
      if (about !== 'any' && named !== 'all' && !named.some((id) => about?.has(id))) continue;
      entry.changes++;
      if (!entry.listeners.size) continue; // kept unshown: re-read when it is shown again (subscribe)
      if (entry.settleTimer) continue; // the re-read already waiting covers this change too
      entry.settleTimer = setTimeout(() => {
        entry.settleTimer = undefined;
        this.fetch(entry);
      }, settle);
    }
  }

  private listenTo(event: EventName): void {
    if (this.eventSubscriptions.has(event)) return;
    this.eventSubscriptions.set(
      event,
      this.client.on(event, (payload) => this.invalidate(event, payload)),
    );
  }

  private entry(name: CallName, input: unknown): Entry {
    const key = QueryCache.key(name, input);
    let entry = this.entries.get(key);
    if (!entry) {
      entry = {
        name,
        input,
        snapshot: { data: undefined, error: undefined, loading: true },
        listeners: new Set(),
        invalidateOn: new Map(),
        about: new Map(),
        inFlight: false,
        changes: 0,
        shownChanges: 0,
        askedAt: 0,
        waiters: [],
        again: false,
        settleTimer: undefined,
        dropTimer: undefined,
      };
      this.entries.set(key, entry);
    }
    return entry;
  }

  private fetch(entry: Entry): void {
    if (entry.inFlight) {
      entry.again = true;
      return;
    }
    entry.inFlight = true;
    entry.again = false;
    const asked = (entry.askedAt = entry.changes);
    // An answer on screen stays while it is re-read (no flash, one render per answer).
    if (entry.snapshot.data === undefined && !entry.snapshot.loading)
      this.publish(entry, { ...entry.snapshot, loading: true }, entry.shownChanges);
    this.requests++;
    void this.client.call(entry.name, entry.input as never).then((r) => {
      entry.inFlight = false;
      const merge = this.mergers.get(entry.name);
      // Asked again while in flight, or older than what is on screen (written in after it was sent;
      // a call with a merge rule leaves that to the rule, which keeps the newer of the two).
      if (entry.again || (asked < entry.shownChanges && !merge)) {
        this.fetch(entry);
        return;
      }
      const data = r.ok && merge ? merge(entry.snapshot.data, r.value) : r.ok ? r.value : undefined;
      const snapshot = r.ok ? { data, error: undefined, loading: false } : { ...entry.snapshot, error: r.error, loading: false };
      this.publish(entry, snapshot, Math.max(asked, entry.shownChanges));
    });
  }

  /** Shows `snapshot`, which reflects `reflects` changes, and answers the `current()` calls it satisfies. */
  private publish(entry: Entry, snapshot: QuerySnapshot<unknown>, reflects: number): void {
    entry.snapshot = snapshot;
    entry.shownChanges = reflects;
    entry.listeners.forEach((l) => l());
    if (snapshot.loading || !entry.waiters.length) return;
    const due = entry.waiters.filter((w) => w.upTo <= reflects);
    entry.waiters = entry.waiters.filter((w) => w.upTo > reflects);
    due.forEach((w) => w.resolve(snapshot));
  }
}
