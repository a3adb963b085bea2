/**
 * kill -9 of a runner process itself (a headless circa-worker). A runner of the same machine
 * knows it is gone and queues its jobs again at once, uncharged; a runner elsewhere cannot know,
 * so its lease is left to lapse and the job is reclaimed (charged a retry).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitForStatus } from '../support/core';
import { ManualClock, nextTurn } from '../support/manual-clock';
import {
  handlerStarted,
  isAlive,
  jobRow,
  marker,
  openTestCore,
  rawDb,
  readLog,
  startRunner,
  tempDir,
  trail,
  waitFor,
} from './helpers';

/** Starts a headless runner, lets it start a 3 s job, then kills it with SIGKILL (and waits for its worker to go). */
async function runnerKilledMidJob(dir: string, log: string) {
  const setup = openTestCore({ libraryDir: dir, runJobs: false });
  const { job } = setup.jobs.enqueue({ type: 'diag.sleep', payload: { ms: 3000, key: 'orphan', log } });
  await setup.close();
  const runner = startRunner(['--library', dir, '--concurrency', '1', '--quiet']);
  const workerPid = await handlerStarted(log, job.id, 1);
  process.kill(runner.pid, 'SIGKILL');
  expect((await runner.exited).signal).toBe('SIGKILL');
  // Its worker notices the parent is gone and exits: nothing keeps running the job.
  await waitFor(() => !isAlive(workerPid), 10_000, 'the orphaned worker to exit');
  return job;
}

describe('a runner process killed with SIGKILL', () => {
  it('of this machine: the next runner queues its job again at once, without charging a retry, and finishes it', async () => {
    const dir = tempDir();
    const log = path.join(dir, 'exec.log');
    const job = await runnerKilledMidJob(dir, log);
    const raw = rawDb(dir);
    const held = jobRow(raw, job.id);
    expect(held.status).toBe('running');
    const deadOwner = held.claimed_by!;
    const leaseUntil = held.lease_expires_at!;

    const core = openTestCore({ libraryDir: dir, concurrency: 1 });
    try {
      const row = await waitForStatus(core, job.id, ['success']);
      expect(row).toMatchObject({ attempt: 2, retry_count: 0 });
      const t = trail(core, job.id);
      expect(t.map((e) => e.event)).toEqual(['enqueued', 'claimed', 'orphan_released', 'claimed', 'succeeded']);
      expect(t[2]).toMatchObject({ actor: core.runner!.runnerId, data: { attempt: 1, owner: deadOwner } });
      // At once: long before the dead runner's 30 s lease would have lapsed.
      expect(t[2].at).toBeLessThan(leaseUntil - 20_000);
      expect(marker(core, 'diag.sleep', 'orphan')).toMatchObject({ jobId: job.id, attempt: 2 });
      expect(core.ledger.verify().ok).toBe(true);
    } finally {
      raw.close();
      await core.close();
    }
  });

  it('of another machine (a shared library): its lease is left to lapse, then reclaimed (charged a retry) and finished', async () => {
    const dir = tempDir();
    const log = path.join(dir, 'exec.log');
    const job = await runnerKilledMidJob(dir, log);
    const raw = rawDb(dir);
    // The same dead runner, as if it had run on another host: this machine cannot tell whether it is alive.
    const deadOwner = `another-host:4242:abcdef/w0`;
    raw.prepare('UPDATE background_jobs SET claimed_by = ? WHERE id = ?').run(deadOwner, job.id);
    expect(jobRow(raw, job.id).lease_expires_at).toBeGreaterThan(Date.now()); // the default 30 s lease is still running

    const clock = new ManualClock();
    const core = openTestCore({
      libraryDir: dir,
      concurrency: 1,
      runner: { leaseMs: 2000, renewEveryMs: 300, sweepEveryMs: 200, clock },
    });
    try {
      // While its lease has not lapsed, nobody takes the job: four sweeps, and their cycles, later.
      clock.advance(800);
      await nextTurn();
      expect(jobRow(raw, job.id)).toMatchObject({ status: 'running', claimed_by: deadOwner, attempt: 1 });

      // Let the lease lapse (as if its 30 s had passed); the next sweep takes it back.
      raw.prepare('UPDATE background_jobs SET lease_expires_at = ? WHERE id = ?').run(Date.now() - 1, job.id);
      clock.advance(200);
      expect(jobRow(raw, job.id)).toMatchObject({ status: 'queued', attempt: 1, retry_count: 1 });
      const row = await waitFor(
        () => {
          clock.advance(100); // renewals keep our own lease while the job runs again
          const r = core.jobs.queries.get(job.id)!;
          return r.status === 'success' ? r : undefined;
        },
        30_000,
        'the job to run again and succeed',
      );
      expect(row).toMatchObject({ attempt: 2, retry_count: 1 });
      const t = trail(core, job.id);
      expect(t.map((e) => e.event)).toEqual(['enqueued', 'claimed', 'reclaimed', 'claimed', 'succeeded']);
      expect(t[2].actor).toBe(core.runner!.runnerId);
      expect(t[2].data).toMatchObject({ attempt: 1, retryable: true, owner: deadOwner });
      expect(String(t[2].data.message)).toContain('stopped renewing its lease');
      expect(t[3].actor.startsWith(core.runner!.runnerId)).toBe(true);
      expect(marker(core, 'diag.sleep', 'orphan')).toMatchObject({ jobId: job.id, attempt: 2 });
      expect(
        readLog(log)
          .filter((l) => l.kind === 'end')
          .map((l) => l.attempt),
      ).toEqual([2]);
      expect(core.ledger.verify().ok).toBe(true);
    } finally {
      raw.close();
      await core.close();
    }
  });

  it('a lapsed lease with no retries left lands in failed, with the reason', async () => {
    const dir = tempDir();
    const setup = openTestCore({ libraryDir: dir, runJobs: false });
    const { job } = setup.jobs.enqueue({ type: 'diag.crash', payload: { mode: 'exit', key: 'z' } }); // maxRetries 1
    // Simulate a runner that claimed it twice and died each time.
    setup.db.sqlite
      .prepare(
        `UPDATE background_jobs SET status = 'running', attempt = 2, retry_count = 1, claimed_by = 'gone:1/w0', lease_expires_at = 1, started_at = 1 WHERE id = ?`,
      )
      .run(job.id);
    await setup.close();
    const core = openTestCore({ libraryDir: dir, concurrency: 1 });
    try {
      const row = await waitForStatus(core, job.id, ['failed']);
      expect(row.error_message).toContain('stopped renewing its lease');
      expect(row.retry_count).toBe(1);
      expect(trail(core, job.id).at(-1)).toMatchObject({ event: 'reclaimed', data: { retryable: false } });
    } finally {
      await core.close();
    }
  });
});
