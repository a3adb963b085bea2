import { afterEach, describe, expect, it } from 'vitest';
import { openTestCore, waitForStatus } from '../support/core';
import type { Core } from '../../src/main/core/core';
import { marker, trail } from './helpers';

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

describe('job runtime smoke', () => {
  it('runs a queued job to success with no manual step', async () => {
    core = openTestCore({ concurrency: 1 });
    const { job, created } = core.jobs.enqueue({ type: 'diag.sleep', payload: { ms: 10, key: 'a' } });
    expect(created).toBe(true);
    expect(job.status).toBe('queued');
    const row = await waitForStatus(core, job.id, ['success']);
    expect(row.attempt).toBe(1);
    expect(row.retry_count).toBe(0);
    expect(row.result_summary).toBe('diag.sleep done');
    expect(row.claimed_by).toBeNull();
    expect(row.lease_expires_at).toBeNull();
    expect(row.started_at).not.toBeNull();
    expect(row.finished_at).toBeGreaterThanOrEqual(row.started_at!);
    expect(row.error_message).toBeNull();
    // The audit trail: every transition, in order, by the runner that held the lease.
    const t = trail(core, job.id);
    expect(t.map((e) => e.event)).toEqual(['enqueued', 'claimed', 'succeeded']);
    expect(t[1].actor).toBe(t[2].actor);
    expect(t[1].actor.startsWith(core.runner!.runnerId)).toBe(true);
    expect(t[1].data).toEqual({ attempt: 1 });
    // apply's write committed with the success mark.
    expect(marker(core, 'diag.sleep', 'a')).toMatchObject({ jobId: job.id, attempt: 1, output: { slept: 10 } });
    expect(core.ledger.verify()).toMatchObject({ ok: true });
    // The details call shows the same trail.
    const details = core.jobs.get(job.id);
    expect(details.audit.map((a) => a.event)).toEqual(['enqueued', 'claimed', 'succeeded']);
  });
});
