/**
 * Machinery errors: another process holds the write lock for longer than the busy timeout while
 * jobs finish. The runner counts the errors, backs off, and commits everything once the lock goes,
 * with no job lost, doubled or charged a retry (its own leases are not mistaken for abandoned ones).
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../support/manual-clock';
import { openTestCore, rawDb, tempDir, trail, waitFor, workersReady } from './helpers';

describe('machinery errors', () => {
  it('a long-held write lock: errors are counted, the runner backs off, then commits every outcome once', async () => {
    const dir = tempDir();
    const clock = new ManualClock();
    const core = openTestCore({
      libraryDir: dir,
      concurrency: 2,
      // Leases shorter than the lock is held: only renewing and committing our own first keeps them.
      runner: { leaseMs: 1000, renewEveryMs: 200, sweepEveryMs: 100, paused: true, clock },
    });
    core.db.sqlite.pragma('busy_timeout = 50'); // give up quickly instead of blocking main for 5 s
    const lock = rawDb(dir);
    try {
      await workersReady(core); // both workers claim at once
      const jobs = core.jobs.enqueueMany(
        Array.from({ length: 6 }, (_, i) => ({ type: 'diag.sleep', payload: { ms: 1000, key: `m${i}` } })),
      );
      core.runner!.setPaused(false);
      await waitFor(
        () => {
          const c = core.jobs.counts();
          return c.running === 2 && c.success === 0;
        },
        30_000,
        'two running jobs',
      );
      // Another connection takes the write lock and keeps it while both running jobs finish.
      lock.prepare('BEGIN IMMEDIATE').run();
      lock.prepare(`INSERT INTO settings (key, value, updated_at) VALUES ('lock.holder', '1', 0)`).run();
      // A finished job's commit meets the lock: counted, and the runner backs off. Its backoffs,
      // renewals and sweeps over the next 2.5 s all meet it too.
      await waitFor(() => core.runner!.getStats().machineryErrors > 0, 30_000, 'a commit to meet the lock');
      for (let ms = 0; ms < 2500; ms += 100) clock.advance(100);
      const during = core.runner!.getStats();
      expect(during.machineryErrors).toBeGreaterThan(0);
      expect(during.lastMachineryError).toMatch(/locked/);
      expect(during.succeeded).toBe(0);
      lock.prepare('COMMIT').run();

      // Time goes on (the backoff ends, leases are renewed) until every job has committed.
      await waitFor(
        () => {
          clock.advance(100);
          return core.jobs.counts().success === 6;
        },
        30_000,
        'all jobs to succeed',
      );
      for (const { job } of jobs) {
        const row = core.jobs.queries.get(job.id)!;
        expect(row.attempt).toBe(1);
        expect(row.retry_count).toBe(0);
        expect(trail(core, job.id).map((e) => e.event)).toEqual(['enqueued', 'claimed', 'succeeded']);
      }
      expect(core.runner!.getStats().succeeded).toBe(6);
      expect(core.ledger.verify().ok).toBe(true);
    } finally {
      if (lock.inTransaction) lock.prepare('ROLLBACK').run();
      lock.close();
      await core.close();
    }
  });
});
