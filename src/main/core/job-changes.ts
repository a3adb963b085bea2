/**
 * `jobs.changed`, told from one place. Every job state change in this process (an enqueue, a
 * cancel, a claim, a commit, a lease taken back) is added here, and this alone coalesces them:
 * at most one flush per interval, each carrying the queue's counts as they are at the flush. The
 * runner reports its changes as they happen; it does not batch them itself.
 *
 * A change is never lost: an event names at most 500 jobs (the contract's bound), so a flush with
 * more tells them in as many events as it takes, all with the same counts; a flush whose counting
 * fails keeps its changes for the next try (see Coalescer). A pause, or a restored library, is
 * told at once (`now`).
 */
import type { EventPayload } from '../../shared/contract';
import type { JobQueries } from '../jobs/store/queries';
import type { Clock } from '../jobs/clock';
import type { Logger } from '../logger';
import { Coalescer, type EventHub } from './event-hub';

/** The most job ids one `jobs.changed` event names (the contract's bound). */
export const CHANGED_IDS_PER_EVENT = 500;

export type JobsState = Omit<EventPayload<'jobs.changed'>, 'changedIds'>;

export interface JobChanges {
  /** Jobs whose rows changed: told within the interval. */
  add(ids: Iterable<number>): void;
  /** Tells the counts now, with whatever changes wait (a pause asked for, a restore done). */
  now(): void;
  /** The counts, the pause and the unseen failures, as an event would carry them. */
  state(): JobsState;
  close(): void;
}

export function openJobChanges(o: {
  events: EventHub;
  queries: JobQueries;
  paused: () => boolean;
  intervalMs: number;
  clock?: Clock;
  log: Logger;
}): JobChanges {
  const state = (): JobsState => ({
    counts: o.queries.counts(),
    paused: o.paused(),
    unseenFailed: o.queries.unseenFailed(),
  });
  const coalescer = new Coalescer<number>(
    o.intervalMs,
    (ids) => {
      const now = state();
      o.events.emit('jobs.changed', { ...now, changedIds: ids.slice(0, CHANGED_IDS_PER_EVENT) });
      for (let i = CHANGED_IDS_PER_EVENT; i < ids.length; i += CHANGED_IDS_PER_EVENT) {
        o.events.emit('jobs.changed', { ...now, changedIds: ids.slice(i, i + CHANGED_IDS_PER_EVENT) });
      }
    },
    { clock: o.clock, onError: (err) => o.log.warn(`jobs.changed not sent yet: ${(err as Error).message}`) },
  );
  return {
    add: (ids) => coalescer.add(ids),
    now: () => coalescer.flushNow(),
    state,
    close: () => coalescer.close(),
  };
}
