/**
 * The renderer's one cache of server state: shared answers, one subscription per event for the
 * whole window, a burst of events re-reading each answer on screen once, and answers nobody shows
 * left alone. The client here is an in-memory stand-in for the contract client (calls answered
 * from a counter, events raised by hand); the real transport is exercised by the e2e specs.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventName } from '../../../shared/contract';
import { QueryCache, type CacheClient } from './query-cache';

function stubClient() {
  const listeners = new Map<string, Set<(p: unknown) => void>>();
  const calls: string[] = [];
  let answer = 0;
  const client = {
    call: async (name: string) => {
      calls.push(name);
      return { ok: true, value: { n: ++answer } };
    },
    on: (name: string, l: (p: unknown) => void) => {
      if (!listeners.has(name)) listeners.set(name, new Set());
      listeners.get(name)!.add(l);
      return () => listeners.get(name)!.delete(l);
    },
  };
  return {
    client: client as unknown as CacheClient,
    calls,
    raise: (name: EventName, payload: unknown = {}) => listeners.get(name)?.forEach((l) => l(payload)),
    subscriptions: (name: string) => listeners.get(name)?.size ?? 0,
  };
}

const flush = () => vi.advanceTimersByTimeAsync(0);

describe('the query cache', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shares one answer between the components that ask the same thing', async () => {
    const s = stubClient();
    const cache = new QueryCache(s.client);
    const seen: number[] = [];
    cache.subscribe('jobs.counts', {}, {}, () => seen.push(1));
    cache.subscribe('jobs.counts', {}, {}, () => seen.push(2));
    await flush();
    expect(s.calls).toEqual(['jobs.counts']);
    expect(cache.snapshot('jobs.counts', {})).toEqual({ data: { n: 1 }, error: undefined, loading: false });
    expect(seen.sort()).toEqual([1, 2]);
  });

  it('listens to each event once, and a burst re-reads each answer on screen once', async () => {
    const s = stubClient();
    const cache = new QueryCache(s.client);
    const opts = { invalidateOn: ['photos.changed'] as EventName[] };
    for (let i = 0; i < 9; i++) cache.subscribe('photos.missingFolders', {}, opts, () => {});
    cache.subscribe('duplicates.list', { view: 'unreviewed', limit: 1 }, { ...opts, settleMs: 2000 }, () => {});
    await flush();
    expect(s.subscriptions('photos.changed')).toBe(1);
    s.calls.length = 0;

    for (let i = 0; i < 50; i++) s.raise('photos.changed');
    await flush();
    expect(s.calls).toEqual(['photos.missingFolders']);
    await vi.advanceTimersByTimeAsync(2000);
    expect(s.calls).toEqual(['photos.missingFolders', 'duplicates.list']);
    expect(cache.snapshot('photos.missingFolders', {}).data).toEqual({ n: 3 });
  });

  it('keeps the answer on screen while it is re-read, and re-reads once more if asked while in flight', async () => {
    const s = stubClient();
    const cache = new QueryCache(s.client);
    const loading: boolean[] = [];
    cache.subscribe('settings.get', {}, {}, () => loading.push(cache.snapshot('settings.get', {}).loading));
    await flush();
    cache.refetch('settings.get', {});
    cache.refetch('settings.get', {});
    cache.refetch('settings.get', {});
    await flush();
    expect(s.calls).toEqual(['settings.get', 'settings.get', 'settings.get']);
    expect(loading.every((l) => !l)).toBe(true);
    expect(cache.snapshot('settings.get', {}).data).toEqual({ n: 3 });
  });

  it('takes an answer an event carries without a request, and leaves unseen answers alone', async () => {
    const s = stubClient();
    const cache = new QueryCache(s.client);
    const off = cache.subscribe('photos.missingFolders', {}, { invalidateOn: ['photos.changed'] }, () => {});
    await flush();
    cache.setData('jobs.counts', {}, { n: 42 });
    expect(cache.snapshot('jobs.counts', {}).data).toEqual({ n: 42 });
    off();
    s.raise('photos.changed');
    await vi.advanceTimersByTimeAsync(100);
    expect(s.calls).toEqual(['photos.missingFolders']);
  });

  it('re-reads an answer about some photos or jobs only when an event names one of them (or says all)', async () => {
    const s = stubClient();
    const cache = new QueryCache(s.client);
    const opts = {
      invalidateOn: ['photos.changed', 'jobs.changed'] as EventName[],
      about: { 'photos.changed': [7], 'jobs.changed': [70] },
    };
    cache.subscribe('photos.get', { id: 7 }, opts, () => {});
    await flush();
    s.calls.length = 0;
    s.raise('photos.changed', { ids: [1, 2, 3], all: false });
    s.raise('jobs.changed', { changedIds: [71] });
    await flush();
    expect(s.calls).toEqual([]);
    s.raise('jobs.changed', { changedIds: [71, 70] });
    await flush();
    expect(s.calls).toEqual(['photos.get']);
    s.raise('photos.changed', { ids: [], all: true });
    await flush();
    expect(s.calls).toEqual(['photos.get', 'photos.get']);
    s.raise('photos.changed', { ids: [9, 7], all: false });
    await flush();
    expect(s.calls).toEqual(['photos.get', 'photos.get', 'photos.get']);
  });

  it('merges an answer with what an event wrote meanwhile, by the rule given for that call', async () => {
    const s = stubClient();
    const cache = new QueryCache(s.client);
    // Keeps the larger n: an answer sent before an event that carried a newer snapshot must not undo it.
    cache.mergeAnswers('photos.importStatus', (old, answer) =>
      ((old as { n: number } | undefined)?.n ?? 0) > (answer as { n: number }).n ? old : answer,
    );
    cache.subscribe('photos.importStatus', {}, {}, () => {});
    cache.update('photos.importStatus', {}, { n: 10 });
    await flush(); // the first request's answer ({ n: 1 }) lands after the event
    expect(cache.snapshot('photos.importStatus', {}).data).toEqual({ n: 10 });
    cache.update('photos.importStatus', {}, { n: 5 });
    expect(cache.snapshot('photos.importStatus', {}).data).toEqual({ n: 10 });
    cache.update('photos.importStatus', {}, { n: 11 });
    expect(cache.snapshot('photos.importStatus', {}).data).toEqual({ n: 11 });
  });

  it('never lets an answer sent before a change the screen shows replace it', async () => {
    const s = heldClient();
    const cache = new QueryCache(s.client);
    cache.subscribe('history.last', { photoId: 1 }, {}, () => {});
    expect(s.waiting()).toBe(1); // the first read, sent before the change below
    cache.setData('history.last', { photoId: 1 }, { n: 'written in' });
    s.answerNext({ n: 'older' });
    await flush();
    expect(cache.snapshot('history.last', { photoId: 1 }).data).toEqual({ n: 'written in' });
    expect(s.waiting()).toBe(1); // read again, after the change
    s.answerNext({ n: 'newer' });
    await flush();
    expect(cache.snapshot('history.last', { photoId: 1 }).data).toEqual({ n: 'newer' });
  });

  it('current() waits for an answer asked after every change it knew of, and asks at once', async () => {
    const s = heldClient();
    const cache = new QueryCache(s.client);
    const opts = { invalidateOn: ['photos.changed'] as EventName[], settleMs: 500, about: { 'photos.changed': [1] } };
    cache.subscribe('history.last', { photoId: 1 }, opts, () => {});
    s.answerNext({ n: 'accepted' });
    await flush();
    expect(await cache.current('history.last', { photoId: 1 })).toMatchObject({ data: { n: 'accepted' } });

    // A change on screen (its re-read held back): current() does not answer with what it had.
    cache.refetch('history.last', { photoId: 1 });
    let now: unknown;
    void cache.current('history.last', { photoId: 1 }).then((snap) => (now = snap.data));
    await flush();
    expect(now).toBeUndefined();
    s.answerNext({ n: 'rejected' });
    await flush();
    expect(now).toEqual({ n: 'rejected' });

    // An event that concerns it: asked at once for the caller, not after the 500 ms settle.
    s.raise('photos.changed', { ids: [1], all: false });
    now = undefined;
    void cache.current('history.last', { photoId: 1 }).then((snap) => (now = snap.data));
    await flush();
    expect(s.waiting()).toBe(1);
    s.answerNext({ n: 'undone' });
    await flush();
    expect(now).toEqual({ n: 'undone' });
    await vi.advanceTimersByTimeAsync(500);
    expect(s.waiting()).toBe(0); // the settle's re-read was folded into it
  });

  it('shows an answer in flight when an event arrives (newer than what it had) but current() waits for the next', async () => {
    const s = heldClient();
    const cache = new QueryCache(s.client);
    const opts = { invalidateOn: ['photos.changed'] as EventName[], settleMs: 500 };
    cache.subscribe('evidence.list', { photoId: 2, includeSuperseded: false }, opts, () => {});
    s.raise('photos.changed', { ids: [2], all: false });
    s.answerNext({ n: 'before the event' });
    await flush();
    expect(cache.snapshot('evidence.list', { photoId: 2, includeSuperseded: false }).data).toEqual({ n: 'before the event' });
    let now: unknown;
    void cache.current('evidence.list', { photoId: 2, includeSuperseded: false }).then((snap) => (now = snap.data));
    await flush();
    expect(now).toBeUndefined();
    s.answerNext({ n: 'after the event' });
    await flush();
    expect(now).toEqual({ n: 'after the event' });
  });
  it('re-reads an answer kept while nobody showed it when it is shown again, if an event concerned it meanwhile', async () => {
    const s = stubClient();
    const cache = new QueryCache(s.client);
    const opts = { invalidateOn: ['photos.changed'] as EventName[], about: { 'photos.changed': [3] } };
    const off = cache.subscribe('photos.get', { id: 3 }, opts, () => {});
    await flush();
    off();
    s.raise('photos.changed', { ids: [4], all: false });
    const offAgain = cache.subscribe('photos.get', { id: 3 }, opts, () => {}); // nothing about it: shown as kept
    await flush();
    expect(s.calls).toEqual(['photos.get']);
    offAgain();
    s.raise('photos.changed', { ids: [3], all: false });
    await flush();
    expect(s.calls).toEqual(['photos.get']); // nobody shows it: not read now
    cache.subscribe('photos.get', { id: 3 }, opts, () => {});
    await flush();
    expect(s.calls).toEqual(['photos.get', 'photos.get']);
    expect(cache.snapshot('photos.get', { id: 3 }).data).toEqual({ n: 2 });
  });
});

/** A client whose answers the test gives, one request at a time, in the order they were sent. */
function heldClient() {
  const base = stubClient();
  const waiting: ((value: unknown) => void)[] = [];
  const client = {
    call: () => new Promise((resolve) => waiting.push((value) => resolve({ ok: true, value }))),
    on: base.client.on.bind(base.client),
  };
  return {
    client: client as unknown as CacheClient,
    raise: base.raise,
    waiting: () => waiting.length,
    answerNext: (value: unknown) => waiting.shift()!(value),
  };
}
