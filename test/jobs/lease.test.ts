/** A runner that lost its lease must discard its late result: the job's new owner is unaffected. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitForStatus } from '../support/core';
import { events, handlerStarted, jobRow, marker, openTestCore, rawDb, readLog, tempDir, trail, waitFor } from './helpers';

describe('a lost lease', () => {
  it('forced away by another party: the late result is discarded and the new owner is untouched', async () => {
    const dir = tempDir();
    const log = path.join(dir, 'exec.log');
    // This runner neither renews nor sweeps during the test, so it learns of the loss only at commit.
    const core = openTestCore({ libraryDir: dir, concurrency: 1, runner: { renewEveryMs: 60_000, sweepEveryMs: 60_000 } });
    const raw = rawDb(dir);
    try {
      const { job } = core.jobs.enqueue({ type: 'diag.sleep', payload: { ms: 2000, key: 'late', log } });
      await handlerStarted(log, job.id, 1);
      // Another runner takes the job over (as after a reclaim and a new claim).
      const until = Date.now() + 60_000;
      raw
        .prepare(
          `UPDATE background_jobs SET claimed_by = 'intruder:1/w0', attempt = attempt + 1, lease_expires_at = ? WHERE id = ?`,
        )
        .run(until, job.id);
      await waitFor(() => readLog(log).some((l) => l.kind === 'end' && l.id === job.id));
      await waitFor(() => core.runner!.getStats().discarded === 1);
      expect(jobRow(raw, job.id)).toMatchObject({
        status: 'running',
        claimed_by: 'intruder:1/w0',
        attempt: 2,
        lease_expires_at: until,
      });
      expect(marker(core, 'diag.sleep', 'late')).toBeUndefined();
      expect(events(core, job.id)).toEqual(['enqueued', 'claimed']);
      expect(core.runner!.getStats().succeeded).toBe(0);
    } finally {
      raw.close();
      await core.close();
    }
  });

  it('lapsed because its runner stopped renewing: another runner reclaims and finishes it; the first result is discarded', async () => {
    const dir = tempDir();
    const log = path.join(dir, 'exec.log');
    // Runner A holds a short lease it never renews (as if hung); it never sweeps either.
    const a = openTestCore({
      libraryDir: dir,
      concurrency: 1,
      runner: { leaseMs: 300, renewEveryMs: 60_000, sweepEveryMs: 60_000 },
    });
    let b: ReturnType<typeof openTestCore> | undefined;
    try {
      const { job } = a.jobs.enqueue({ type: 'diag.sleep', payload: { ms: 4000, key: 'twice', log } });
      await handlerStarted(log, job.id, 1);
      // A hung runner claims nothing more (else, on a loaded machine, A could finish its attempt
      // before B's worker is up and claim the job again under the lease it never renews).
      a.runner!.setPaused(true);
      // Runner B sweeps often: it takes the lapsed job back (charged a retry), claims and runs it.
      b = openTestCore({ libraryDir: dir, concurrency: 1, runner: { sweepEveryMs: 100 } });
      const done = await waitForStatus(b, job.id, ['success'], 30_000);
      expect(done).toMatchObject({ attempt: 2, retry_count: 1 });
      // A's attempt finishes too, but its commit is fenced off.
      await waitFor(() => readLog(log).some((l) => l.kind === 'end' && l.attempt === 1));
      await waitFor(() => a.runner!.getStats().discarded === 1);
      expect(a.runner!.getStats().succeeded).toBe(0);
      expect(b.runner!.getStats().succeeded).toBe(1);
      expect(marker(b, 'diag.sleep', 'twice')).toMatchObject({ jobId: job.id, attempt: 2 });
      const t = trail(b, job.id);
      expect(t.map((e) => e.event)).toEqual(['enqueued', 'claimed', 'reclaimed', 'claimed', 'succeeded']);
      expect(t[1].actor.startsWith(a.runner!.runnerId)).toBe(true);
      expect(t[2].actor).toBe(b.runner!.runnerId);
      expect(t[4]).toMatchObject({ data: { attempt: 2 } });
      expect(t[4].actor.startsWith(b.runner!.runnerId)).toBe(true);
      expect(b.jobs.queries.get(job.id)).toMatchObject({ status: 'success', attempt: 2 });
      expect(b.ledger.verify().ok).toBe(true);
    } finally {
      await a.close();
      await b?.close();
    }
  });
});
