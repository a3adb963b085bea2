/** Cancellation: queued jobs at once; running jobs through their signal, or by killing a process that ignores it. */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { waitForStatus } from '../support/core';
import { events, handlerStarted, isAlive, marker, openTestCore, readLog, tempDir, trail, waitFor } from './helpers';

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

describe('cancellation', () => {
  it('a queued job is cancelled at once and frees its subject', () => {
    core = openTestCore({ runJobs: false });
    const { job } = core.jobs.enqueue({ type: 'diag.sleep', payload: { ms: 10, key: 'q' } });
    const after = core.jobs.cancel(job.id);
    expect(after).toMatchObject({ status: 'cancelled', cancelRequested: true });
    expect(after.finishedAt).not.toBeNull();
    expect(core.jobs.queries.get(job.id)!.idempotency_key).toBeNull();
    expect(trail(core, job.id).at(-1)).toMatchObject({ event: 'cancelled', data: { wasQueued: true } });
    // Cancelling again changes nothing; the same work can be enqueued anew.
    expect(core.jobs.cancel(job.id).status).toBe('cancelled');
    expect(events(core, job.id)).toEqual(['enqueued', 'cancelled']);
    expect(core.jobs.enqueue({ type: 'diag.sleep', payload: { ms: 10, key: 'q' } }).created).toBe(true);
  });

  it('a running job that honours its signal stops, is cancelled, writes nothing, and its worker lives on', async () => {
    core = openTestCore({ concurrency: 1 });
    const log = path.join(tempDir(), 'exec.log');
    const { job } = core.jobs.enqueue({ type: 'diag.sleep', payload: { ms: 30_000, key: 'r', log } });
    const pid = await handlerStarted(log, job.id);
    expect(core.jobs.cancel(job.id)).toMatchObject({ status: 'running', cancelRequested: true });
    const row = await waitForStatus(core, job.id, ['cancelled']);
    expect(row.attempt).toBe(1);
    expect(row.retry_count).toBe(0);
    expect(events(core, job.id)).toEqual(['enqueued', 'claimed', 'cancel_requested', 'cancelled']);
    expect(marker(core, 'diag.sleep', 'r')).toBeUndefined();
    expect(
      readLog(log)
        .filter((l) => l.id === job.id)
        .map((l) => l.kind),
    ).toEqual(['start']);
    // The same worker process runs the next job: it was not killed.
    const next = core.jobs.enqueue({ type: 'diag.sleep', payload: { ms: 0, key: 'r2', log } });
    await waitForStatus(core, next.job.id, ['success']);
    expect(readLog(log).find((l) => l.id === next.job.id)!.pid).toBe(pid);
  });

  it('a handler that ignores its signal has its process killed after the grace period; a new worker takes over', async () => {
    core = openTestCore({ concurrency: 1, runner: { cancelGraceMs: 500 } });
    const log = path.join(tempDir(), 'exec.log');
    // Find the current worker's pid first.
    const probe = core.jobs.enqueue({ type: 'diag.sleep', payload: { ms: 0, log } });
    await waitForStatus(core, probe.job.id, ['success']);
    const oldPid = readLog(log)[0].pid;

    const { job } = core.jobs.enqueue({ type: 'diag.ignore_abort', payload: { ms: 20_000, key: 'stubborn', log } });
    // Started in the worker, not just claimed: a cancel that reaches a job still waiting in its
    // worker stops it before it starts, and no kill is needed.
    await handlerStarted(log, job.id);
    core.jobs.cancel(job.id);
    const row = await waitForStatus(core, job.id, ['cancelled'], 15_000);
    expect(row.retry_count).toBe(0);
    expect(events(core, job.id)).toEqual(['enqueued', 'claimed', 'cancel_requested', 'cancelled']);
    expect(marker(core, 'diag.ignore_abort', 'stubborn')).toBeUndefined();
    await waitFor(() => !isAlive(oldPid), 10_000, 'the stubborn worker to be killed');

    const next = core.jobs.enqueue({ type: 'diag.sleep', payload: { ms: 0, key: 'after', log } });
    await waitForStatus(core, next.job.id, ['success']);
    const newPid = readLog(log).find((l) => l.id === next.job.id)!.pid;
    expect(newPid).not.toBe(oldPid);
  });

  it('a cancel requested by another process reaches the runner at its next lease renewal', async () => {
    const dir = tempDir();
    const log = path.join(dir, 'exec.log');
    core = openTestCore({ libraryDir: dir, concurrency: 1 });
    const other = openTestCore({ libraryDir: dir, runJobs: false });
    try {
      const { job } = core.jobs.enqueue({ type: 'diag.sleep', payload: { ms: 30_000, key: 'remote', log } });
      await handlerStarted(log, job.id);
      expect(other.jobs.cancel(job.id, 'other-process').status).toBe('running');
      await waitForStatus(core, job.id, ['cancelled']);
      const t = trail(core, job.id);
      expect(t.map((e) => e.event)).toEqual(['enqueued', 'claimed', 'cancel_requested', 'cancelled']);
      expect(t[2].actor).toBe('other-process');
      expect(t[3].actor.startsWith(core.runner!.runnerId)).toBe(true);
    } finally {
      await other.close();
    }
  });
});
