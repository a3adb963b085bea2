/** The headless runner (`circa-worker`) as an OS process: --once, and clean shutdown on SIGTERM. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  events,
  handlerStarted,
  isAlive,
  jobRow,
  openTestCore,
  rawDb,
  readLog,
  startRunner,
  tempDir,
  trail,
  waitFor,
} from './helpers';

async function library(jobs: (dir: string) => { type: string; payload: Record<string, unknown> }[]) {
  const dir = tempDir();
  const core = openTestCore({ libraryDir: dir, runJobs: false });
  const ids = core.jobs.enqueueMany(jobs(dir)).map((o) => o.job.id);
  await core.close();
  return { dir, ids };
}

async function trailOf(dir: string, id: number) {
  const core = openTestCore({ libraryDir: dir, runJobs: false });
  try {
    return trail(core, id);
  } finally {
    await core.close();
  }
}

describe('circa-worker', () => {
  it('--once runs exactly one job and exits 0', async () => {
    const { dir, ids } = await library(() => [
      { type: 'diag.sleep', payload: { ms: 0, key: 'one' } },
      { type: 'diag.sleep', payload: { ms: 0, key: 'two' } },
    ]);
    const r = startRunner(['--library', dir, '--once', '--quiet']);
    expect(await r.exited).toEqual({ code: 0, signal: null });
    const raw = rawDb(dir);
    expect(jobRow(raw, ids[0]).status).toBe('success');
    expect(jobRow(raw, ids[1])).toMatchObject({ status: 'queued', attempt: 0 });
    raw.close();
  });

  it('SIGTERM: stops claiming and lets the job in flight finish within the grace period', async () => {
    const { dir, ids } = await library((d) => [
      { type: 'diag.sleep', payload: { ms: 3000, key: 'inflight', log: path.join(d, 'exec.log') } },
      { type: 'diag.sleep', payload: { ms: 0, key: 'next' } },
    ]);
    const log = path.join(dir, 'exec.log');
    const raw = rawDb(dir);
    const r = startRunner(['--library', dir, '--concurrency', '1', '--grace', '20']);
    await handlerStarted(log, ids[0]);
    r.proc.kill('SIGTERM');
    expect(await r.exited).toEqual({ code: 0, signal: null });
    expect(jobRow(raw, ids[0])).toMatchObject({ status: 'success', attempt: 1 });
    expect(jobRow(raw, ids[1])).toMatchObject({ status: 'queued', attempt: 0, claimed_by: null });
    expect(r.output()).toContain('SIGTERM: no new claims');
    raw.close();
  });

  it('SIGTERM past the grace period: the worker is stopped and the lease released without charging a retry', async () => {
    const dir = tempDir();
    const log = path.join(dir, 'exec.log');
    const setup = openTestCore({ libraryDir: dir, runJobs: false });
    const { job } = setup.jobs.enqueue({ type: 'diag.sleep', payload: { ms: 30_000, key: 'long', log } });
    await setup.close();
    const r = startRunner(['--library', dir, '--concurrency', '1', '--grace', '1', '--quiet']);
    const workerPid = await handlerStarted(log, job.id);
    r.proc.kill('SIGTERM');
    expect(await r.exited).toEqual({ code: 0, signal: null });
    // The handler was stopped before the lease was given back: it is not still running somewhere.
    expect(isAlive(workerPid)).toBe(false);
    const raw = rawDb(dir);
    expect(jobRow(raw, job.id)).toMatchObject({
      status: 'queued',
      attempt: 1,
      retry_count: 0,
      claimed_by: null,
      lease_expires_at: null,
    });
    raw.close();
    const t = await trailOf(dir, job.id);
    expect(t.map((e) => e.event)).toEqual(['enqueued', 'claimed', 'released']);
    expect(readLog(log).map((l) => l.kind)).toEqual(['start']);

    // The next runner picks it up as a fresh attempt with no retry spent.
    const core = openTestCore({ libraryDir: dir, concurrency: 1 });
    try {
      core.db.sqlite
        .prepare('UPDATE background_jobs SET payload = ? WHERE id = ?')
        .run(JSON.stringify({ ms: 0, key: 'long', log }), job.id);
      await waitFor(() => core.jobs.queries.get(job.id)!.status === 'success');
      expect(core.jobs.queries.get(job.id)).toMatchObject({ attempt: 2, retry_count: 0 });
      expect(events(core, job.id)).toEqual(['enqueued', 'claimed', 'released', 'claimed', 'succeeded']);
    } finally {
      await core.close();
    }
  });

  it('a signal sent to the whole process group (Ctrl-C, a service manager) does not kill jobs in flight', async () => {
    const dir = tempDir();
    const log = path.join(dir, 'exec.log');
    const setup = openTestCore({ libraryDir: dir, runJobs: false });
    const { job } = setup.jobs.enqueue({ type: 'diag.sleep', payload: { ms: 2500, key: 'group', log } });
    await setup.close();
    const r = startRunner(['--library', dir, '--concurrency', '1', '--grace', '20', '--quiet'], { detached: true });
    await handlerStarted(log, job.id);
    process.kill(-r.pid, 'SIGINT'); // the runner and its workers all receive it
    expect(await r.exited).toEqual({ code: 0, signal: null });
    const raw = rawDb(dir);
    expect(jobRow(raw, job.id)).toMatchObject({ status: 'success', attempt: 1, retry_count: 0 });
    raw.close();
    expect(readLog(log).map((l) => l.kind)).toEqual(['start', 'end']);
  });
});
