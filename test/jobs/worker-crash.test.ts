/** A worker process dies mid-job (kill -9, a crash, out of memory): the job is retried and nothing partial is written. */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { waitForStatus } from '../support/core';
import { BACKOFF_BASE_MS } from '../../src/main/jobs/backoff';
import { events, handlerStarted, isAlive, marker, openTestCore, readLog, tempDir, trail, waitFor } from './helpers';

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

describe('worker process crashes', () => {
  it('kill -9 of the worker mid-job: requeued at once, charged one retry, rerun, and only the rerun writes', async () => {
    core = openTestCore({ concurrency: 1 });
    const log = path.join(tempDir(), 'exec.log');
    const { job } = core.jobs.enqueue({ type: 'diag.sleep', payload: { ms: 3000, key: 'k9', log } });
    const pid = await handlerStarted(log, job.id, 1);
    process.kill(pid, 'SIGKILL');

    const row = await waitForStatus(core, job.id, ['success']);
    expect(row.attempt).toBe(2);
    expect(row.retry_count).toBe(1);
    const t = trail(core, job.id);
    expect(t.map((e) => e.event)).toEqual(['enqueued', 'claimed', 'failed', 'claimed', 'succeeded']);
    expect(t[2].data).toMatchObject({ attempt: 1, retryable: true });
    expect(String(t[2].data.message)).toMatch(/worker process crashed while running this job \(signal SIGKILL\)/);
    // Requeued at once, not after the backoff (30 s, at least 27 s with jitter): ready again the
    // moment it failed, and claimed again within seconds.
    expect(row.run_after).toBe(t[2].at);
    expect(t[3].at - t[2].at).toBeLessThan(BACKOFF_BASE_MS * 0.9 - 17_000);
    // The killed attempt never finished and wrote nothing; the marker is the rerun's.
    const lines = readLog(log);
    expect(lines.filter((l) => l.attempt === 1).map((l) => l.kind)).toEqual(['start']);
    expect(lines.filter((l) => l.attempt === 2).map((l) => l.kind)).toEqual(['start', 'end']);
    expect(marker(core, 'diag.sleep', 'k9')).toMatchObject({ jobId: job.id, attempt: 2 });
    // A new worker process replaced the dead one.
    expect(lines.find((l) => l.attempt === 2)!.pid).not.toBe(pid);
    expect(isAlive(pid)).toBe(false);
  });

  it('a handler that crashes its process every time ends failed with a readable message; the pool recovers', async () => {
    core = openTestCore({ concurrency: 1 });
    const { job } = core.jobs.enqueue({ type: 'diag.crash', payload: { mode: 'exit', key: 'c1' } });
    const row = await waitForStatus(core, job.id, ['failed']);
    expect(row.attempt).toBe(2); // maxRetries 1: the crash costs a retry, the second crash fails it
    expect(row.retry_count).toBe(1);
    expect(row.error_message).toBe('The worker process crashed while running this job (signal SIGKILL)');
    expect(events(core, job.id)).toEqual(['enqueued', 'claimed', 'failed', 'claimed', 'failed']);
    expect(marker(core, 'diag.crash', 'c1')).toBeUndefined();
    // The replaced worker runs the next job normally.
    const next = core.jobs.enqueue({ type: 'diag.sleep', payload: { ms: 0, key: 'after-crash' } });
    expect((await waitForStatus(core, next.job.id, ['success'])).attempt).toBe(1);
  });

  it('running out of memory becomes a readable error, not a hang or a crash of the runner', async () => {
    core = openTestCore({ concurrency: 1, runner: { heapMb: 64 } });
    const { job } = core.jobs.enqueue({ type: 'diag.crash', payload: { mode: 'oom', key: 'oom' } });
    const row = await waitForStatus(core, job.id, ['failed'], 60_000);
    expect(row.attempt).toBe(2);
    expect(row.error_message).toBe('The worker process ran out of memory (heap limit 64 MB) while running this job');
    expect(row.error_stack).toMatch(/heap/i);
    expect(marker(core, 'diag.crash', 'oom')).toBeUndefined();
    const next = core.jobs.enqueue({ type: 'diag.noop', payload: {} });
    await waitForStatus(core, next.job.id, ['success']);
    await waitFor(() => core!.runner!.getStats().workersAlive === 1);
  }, 90_000);
});
