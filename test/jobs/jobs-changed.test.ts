/**
 * `jobs.changed` is coalesced once, in one place (src/main/core/job-changes.ts): a burst of state
 * changes, from the service and the runner alike, is one event carrying the counts at its end,
 * and no change is ever lost, however many there are.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import type { EventPayload } from '../../src/shared/contract';
import { ManualClock, nextTurn } from '../support/manual-clock';
import { openTestCore, waitFor, workersReady } from './helpers';

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

function record(c: Core): EventPayload<'jobs.changed'>[] {
  const seen: EventPayload<'jobs.changed'>[] = [];
  c.events.subscribe((name, payload) => {
    if (name === 'jobs.changed') seen.push(payload as EventPayload<'jobs.changed'>);
  });
  return seen;
}

describe('jobs.changed, coalesced in one place', () => {
  it('a burst of enqueues, claims and commits is one event with the counts at its end', async () => {
    const eventClock = new ManualClock();
    core = openTestCore({ concurrency: 2, eventClock });
    // Worker processes start slowly on a busy machine: the burst is what is measured, not their start.
    await workersReady(core);
    const seen = record(core);
    const N = 60;
    // N separate enqueues, then the runner claims and commits each: 3N state changes.
    const ids = Array.from({ length: N }, (_, i) => core!.jobs.enqueue({ type: 'diag.noop', payload: { key: `b${i}` } }).job.id);
    await waitFor(() => core!.jobs.counts().success === N, 50_000, 'the burst to drain');
    await nextTurn();
    expect(seen).toHaveLength(0); // nothing is told before the event clock says so
    eventClock.advance(0);
    expect(seen).toHaveLength(1);
    expect(seen[0].counts).toMatchObject({ queued: 0, running: 0, success: N });
    expect(new Set(seen[0].changedIds)).toEqual(new Set(ids));
  });

  it('the last change of a burst always reaches a listener, also when it comes just after a flush', async () => {
    const eventClock = new ManualClock();
    core = openTestCore({ runJobs: false, eventClock });
    const seen = record(core);
    const first = core.jobs.enqueue({ type: 'diag.noop', payload: { key: 'first' } }).job.id;
    eventClock.advance(0);
    expect(seen.map((e) => e.changedIds)).toEqual([[first]]);
    // Inside the interval after that flush: held back, then told with the counts as they are then.
    const second = core.jobs.enqueue({ type: 'diag.noop', payload: { key: 'second' } }).job.id;
    core.jobs.cancel(first);
    eventClock.advance(199);
    expect(seen).toHaveLength(1);
    eventClock.advance(1);
    expect(seen).toHaveLength(2);
    expect(new Set(seen[1].changedIds)).toEqual(new Set([second, first]));
    expect(seen[1].counts).toMatchObject({ queued: 1, cancelled: 1 });
  });

  it('a pause is told at once, with the changes that wait', async () => {
    const eventClock = new ManualClock();
    core = openTestCore({ runJobs: false, eventClock });
    const seen = record(core);
    const id = core.jobs.enqueue({ type: 'diag.noop', payload: { key: 'p' } }).job.id;
    const r = await core.dispatch('jobs.setPaused', { paused: true });
    expect(r).toMatchObject({ ok: true });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ paused: true, changedIds: [id], counts: { queued: 1 } });
    eventClock.advance(1_000);
    expect(seen).toHaveLength(1); // told once, not again by the interval
  });

  it('more jobs than one event may name: every one is named, the last included (real time)', async () => {
    core = openTestCore({ runJobs: false });
    const seen = record(core);
    const N = 1_200;
    const ids = core.jobs
      .enqueueMany(Array.from({ length: N }, (_, i) => ({ type: 'diag.noop', payload: { key: `m${i}` } })))
      .map((r) => r.job.id);
    const named = () => new Set(seen.flatMap((e) => e.changedIds));
    await waitFor(() => named().has(ids[N - 1]), 5_000, 'the last job to be named').catch(() => undefined);
    expect(seen.every((e) => e.changedIds.length <= 500)).toBe(true);
    expect(ids.filter((id) => !named().has(id))).toEqual([]);
    expect(seen.at(-1)!.counts.queued).toBe(N);
  });
});
