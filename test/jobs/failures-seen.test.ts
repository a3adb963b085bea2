/**
 * Failures the archivist can deal with: a permanent failure is not retried blindly (the refusal
 * says why; `force` retries anyway), retrying or re-running the same work marks the old failure as
 * seen, and dismissing failures is persisted and audited, so the red badge counts only what is new.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { waitForStatus } from '../support/core';
import { openTestCore, tempDir, trail, waitFor } from './helpers';

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

const fail = (c: Core, key: string, mode: 'permanent' | 'retryable' = 'permanent') =>
  c.jobs.enqueue({ type: 'diag.fail', payload: { message: `broken scan ${key}`, mode, key } }).job;

/** Drives a retryable failure through its retries ("run now" each time) to `failed`. */
function exhaust(c: Core, id: number) {
  return waitFor(
    () => {
      const row = c.jobs.queries.get(id)!;
      if (row.status === 'failed') return row;
      if (row.status === 'queued' && row.attempt > 0) c.jobs.retry(id);
      return undefined;
    },
    30_000,
    `job ${id} to fail for good`,
  );
}

describe('failures the archivist has seen', () => {
  it('refuses to retry a permanent failure blindly, says why, and retries it when asked to anyway', async () => {
    core = openTestCore({ concurrency: 1 });
    const job = fail(core, 'p1');
    await waitForStatus(core, job.id, ['failed']);
    expect(core.jobs.get(job.id)).toMatchObject({ errorKind: 'permanent', acknowledgedAt: null });
    expect(core.jobs.unseenFailed()).toBe(1);

    const refused = await core.dispatch('jobs.retry', { id: job.id });
    expect(refused).toMatchObject({ ok: false, error: { code: 'conflict' } });
    const message = (refused as { error: { message: string } }).error.message;
    expect(message).toContain('a retry cannot fix');
    expect(message).toContain('broken scan p1');
    expect(core.jobs.queries.counts().queued).toBe(0); // nothing was enqueued

    const forced = await core.dispatch('jobs.retry', { id: job.id, force: true });
    expect(forced).toMatchObject({ ok: true, value: { created: true } });
    const again = (forced as { value: { job: { id: number } } }).value.job.id;
    await waitForStatus(core, again, ['failed']);
    // The old failure was answered by the new attempt: the badge counts the new one only.
    expect(core.jobs.get(job.id).acknowledgedAt).not.toBeNull();
    expect(trail(core, job.id).at(-1)).toMatchObject({ event: 'acknowledged', actor: 'user', data: { supersededBy: again } });
    expect(core.jobs.unseenFailed()).toBe(1);
    expect(core.jobs.queries.counts().failed).toBe(2);
  });

  it('retry-all retries what a retry may fix, counts the permanent ones and leaves them for the archivist', async () => {
    core = openTestCore({ concurrency: 1 });
    const permanent = [fail(core, 'a'), fail(core, 'b')];
    const transient = fail(core, 'c', 'retryable');
    for (const j of permanent) await waitForStatus(core, j.id, ['failed']);
    await exhaust(core, transient.id);
    expect(core.jobs.get(transient.id).errorKind).toBe('retryable');
    expect(core.jobs.unseenFailed()).toBe(3);

    core.runner!.setPaused(true);
    const r = await core.dispatch('jobs.retryAllFailed', {});
    expect(r).toEqual({ ok: true, value: { requeued: 1, skippedPermanent: 2 } });
    expect(core.jobs.unseenFailed()).toBe(2);
    expect(core.jobs.get(transient.id).acknowledgedAt).not.toBeNull();
    expect(core.jobs.queries.counts().queued).toBe(1);
  });

  it('dismissing failures is persisted and audited; the badge counts only new ones, also after a reopen', async () => {
    const dir = tempDir();
    core = openTestCore({ libraryDir: dir, concurrency: 1 });
    const a = fail(core, 'd1');
    const b = fail(core, 'd2');
    await waitForStatus(core, a.id, ['failed']);
    await waitForStatus(core, b.id, ['failed']);
    expect((await core.dispatch('jobs.counts', {})) as unknown).toMatchObject({ ok: true, value: { unseenFailed: 2 } });

    expect(await core.dispatch('jobs.acknowledge', { ids: [a.id] })).toEqual({ ok: true, value: { acknowledged: 1 } });
    // Dismissing it again, or dismissing a job that did not fail, changes nothing.
    expect(await core.dispatch('jobs.acknowledge', { ids: [a.id] })).toEqual({ ok: true, value: { acknowledged: 0 } });
    expect(trail(core, a.id).filter((e) => e.event === 'acknowledged')).toEqual([
      expect.objectContaining({ actor: 'user', data: { dismissed: true } }),
    ]);
    expect(core.jobs.unseenFailed()).toBe(1);

    // A new failure after the dismissal is what the badge shows.
    const c = fail(core, 'd3');
    await waitForStatus(core, c.id, ['failed']);
    expect(core.jobs.unseenFailed()).toBe(2);
    expect(await core.dispatch('jobs.acknowledge', { all: true })).toEqual({ ok: true, value: { acknowledged: 2 } });
    expect(core.jobs.unseenFailed()).toBe(0);
    expect(core.jobs.queries.counts().failed).toBe(3); // still listed, with their errors

    await core.close();
    core = openTestCore({ libraryDir: dir, concurrency: 1 });
    expect(core.jobs.unseenFailed()).toBe(0);
    expect(core.ledger.verify().ok).toBe(true);
  });

  it('re-running a photo job answers the earlier failure of the same work', async () => {
    core = openTestCore({ concurrency: 1 });
    const first = fail(core, 'same');
    await waitForStatus(core, first.id, ['failed']);
    core.runner!.setPaused(true);
    // A new job for the same subject (what "Re-run" on a photo does), asking to supersede.
    const [next] = core.jobs.enqueueMany(
      [{ type: 'diag.fail', payload: { message: 'x', mode: 'permanent', key: 'same' } }],
      'user',
      { supersedeFailures: true },
    );
    expect(next.created).toBe(true);
    expect(core.jobs.get(first.id).acknowledgedAt).not.toBeNull();
    // An import's enqueue (no such request) leaves failures alone.
    const other = fail(core, 'other');
    core.runner!.setPaused(false);
    await waitForStatus(core, other.id, ['failed']);
    core.jobs.enqueue({ type: 'diag.fail', payload: { key: 'other' } });
    expect(core.jobs.get(other.id).acknowledgedAt).toBeNull();
  });
});
