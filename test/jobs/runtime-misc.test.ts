/** Pause/resume, per-type timeouts, types without a handler, retention pruning, and coalesced change events. */
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { BACKOFF_BASE_MS } from '../../src/main/jobs/backoff';
import { waitForStatus } from '../support/core';
import { ManualClock, nextTurn } from '../support/manual-clock';
import { events, openTestCore, rawDb, tempDir, trail, waitFor, workersReady } from './helpers';

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

describe('pause and resume', () => {
  it('paused: nothing new is claimed, the job in flight finishes; resumed: the rest runs', async () => {
    const clock = new ManualClock();
    core = openTestCore({ concurrency: 1, runner: { clock } });
    const first = core.jobs.enqueue({ type: 'diag.sleep', payload: { ms: 200, key: 'inflight' } });
    await waitForStatus(core, first.job.id, ['running']);
    core.runner!.setPaused(true);
    const later = core.jobs.enqueueMany([1, 2, 3].map((i) => ({ type: 'diag.sleep', payload: { ms: 0, key: `later${i}` } })));
    await waitForStatus(core, first.job.id, ['success']);
    // Several poll intervals (100 ms in tests), each cycle run, and a finished slot later: still nothing claimed.
    clock.advance(700);
    await nextTurn();
    for (const { job } of later) expect(core.jobs.queries.get(job.id)!.status).toBe('queued');
    expect(core.runner!.getStats()).toMatchObject({ paused: true, claimed: 1 });
    core.runner!.setPaused(false);
    for (const { job } of later) await waitForStatus(core, job.id, ['success']);
  });

  it('the paused flag persists in the library and a new runner starts paused', async () => {
    const dir = tempDir();
    core = openTestCore({ libraryDir: dir, concurrency: 1 });
    const r = await core.dispatch('jobs.setPaused', { paused: true });
    expect(r).toMatchObject({ ok: true });
    await core.close();
    const clock = new ManualClock();
    core = openTestCore({ libraryDir: dir, concurrency: 1, runner: { clock } });
    expect(core.runner!.paused).toBe(true);
    const { job } = core.jobs.enqueue({ type: 'diag.noop', payload: {} });
    await workersReady(core);
    clock.advance(300);
    await nextTurn();
    expect(core.jobs.queries.get(job.id)!.status).toBe('queued');
    await core.dispatch('jobs.setPaused', { paused: false });
    await waitForStatus(core, job.id, ['success']);
  });
});

describe('timeouts', () => {
  it('an attempt past its type timeout is aborted and retried with backoff, then fails', async () => {
    const clock = new ManualClock();
    core = openTestCore({ concurrency: 1, runner: { clock } });
    const { job } = core.jobs.enqueue({ type: 'diag.slow', payload: { ms: 10_000, key: 't' } }); // timeout 500 ms, 1 retry
    await waitForStatus(core, job.id, ['running']);
    clock.advance(500);
    let row = await waitFor(() => {
      const r = core!.jobs.queries.get(job.id)!;
      return r.status === 'queued' && r.retry_count === 1 ? r : undefined;
    });
    expect(row.error_message).toBe('Timed out after 500 ms');
    const failedAt = trail(core, job.id).at(-1)!;
    expect(failedAt).toMatchObject({ event: 'failed', data: { retryable: true } });
    expect(row.run_after - failedAt.at).toBeGreaterThanOrEqual(BACKOFF_BASE_MS * 0.9);
    core.jobs.retry(job.id);
    await waitFor(() => core!.jobs.queries.get(job.id)!.attempt === 2);
    clock.advance(500);
    row = await waitForStatus(core, job.id, ['failed']);
    expect(row).toMatchObject({ attempt: 2, retry_count: 1, error_message: 'Timed out after 500 ms' });
  });
});

describe('types this runner does not know', () => {
  it('are never claimed (another version of Circa sharing the library may run them); enqueue refuses them', async () => {
    core = openTestCore({ concurrency: 1 });
    // A job of a type from another version of Circa, written to the same library.
    const now = Date.now();
    const foreign = Number(
      core.db.sqlite
        .prepare(
          `INSERT INTO background_jobs (type, status, payload, priority, attempt, retry_count, max_retries, run_after, created_at, updated_at)
           VALUES ('future_type', 'queued', '{}', 10, 0, 0, 2, ?, ?, ?)`,
        )
        .run(now, now, now).lastInsertRowid,
    );
    // Known work behind it (lower priority) still runs: the foreign job does not block the queue.
    const { job } = core.jobs.enqueue({ type: 'diag.noop', payload: {} });
    await waitForStatus(core, job.id, ['success']);
    expect(core.jobs.queries.get(foreign)).toMatchObject({ status: 'queued', attempt: 0 });
    expect(events(core, foreign)).toEqual([]);
    // Unknown types and bad payloads are refused at enqueue.
    expect(() => core!.jobs.enqueue({ type: 'nonsense', payload: {} })).toThrow(/Unknown job type/);
    expect(() => core!.jobs.enqueue({ type: 'diag.sleep', payload: { ms: -1 } })).toThrow(/Invalid payload for diag.sleep/);
  });
});

describe('retention', () => {
  it('prunes finished jobs older than the configured age; their audit events stay', async () => {
    const dir = tempDir();
    const setup = openTestCore({ libraryDir: dir, runJobs: false });
    setup.settings.update({ jobRetentionDays: 1 });
    const old = setup.jobs.enqueueMany([0, 1, 2].map((i) => ({ type: 'diag.sleep', payload: { ms: 0, key: `old${i}` } })));
    const recent = setup.jobs.enqueue({ type: 'diag.sleep', payload: { ms: 0, key: 'recent' } });
    const queued = setup.jobs.enqueue({ type: 'diag.sleep', payload: { ms: 0, key: 'queued' } });
    for (const { job } of [...old, recent]) setup.jobs.cancel(job.id);
    await setup.close();
    const raw = rawDb(dir);
    const twoDaysAgo = Date.now() - 2 * 86_400_000;
    for (const { job } of old) raw.prepare('UPDATE background_jobs SET finished_at = ? WHERE id = ?').run(twoDaysAgo, job.id);
    const auditBefore = raw.prepare('SELECT count(*) FROM audit_events').pluck().get() as number;

    core = openTestCore({ libraryDir: dir, concurrency: 1, runner: { paused: true } }); // the first sweep prunes
    await waitFor(() => !core!.jobs.queries.get(old[0].job.id));
    for (const { job } of old) expect(core.jobs.queries.get(job.id)).toBeUndefined();
    expect(core.jobs.queries.get(recent.job.id)!.status).toBe('cancelled');
    expect(core.jobs.queries.get(queued.job.id)!.status).toBe('queued');
    expect(raw.prepare('SELECT count(*) FROM audit_events').pluck().get()).toBe(auditBefore);
    expect(events(core, old[0].job.id)).toEqual(['enqueued', 'cancelled']);
    expect(core.ledger.verify().ok).toBe(true);
    raw.close();
  });
});

describe('jobs.changed events', () => {
  it('are coalesced: thousands of transitions make a handful of events', async () => {
    core = openTestCore({ concurrency: 2 });
    await workersReady(core);
    const seen: { counts: Record<string, number>; changedIds: number[] }[] = [];
    core.events.subscribe((name, payload) => {
      if (name === 'jobs.changed') seen.push(payload as (typeof seen)[number]);
    });
    const N = 1000;
    const t0 = Date.now();
    core.jobs.enqueueMany(Array.from({ length: N }, () => ({ type: 'diag.noop', payload: {} })));
    await waitFor(() => core!.jobs.counts().success === N);
    // The last event shows the final counts.
    await waitFor(() => seen.at(-1)?.counts.success === N, 5_000, 'the final jobs.changed');
    const elapsed = Date.now() - t0;
    const transitions = 3 * N; // enqueued, claimed, succeeded
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.length).toBeLessThanOrEqual(Math.ceil(elapsed / 200) + 2); // at most one per 200 ms interval
    expect(seen.length).toBeLessThan(transitions / 50);
    expect(seen.every((e) => e.changedIds.length <= 500)).toBe(true);
  });
});
