/** Handlers never hold a database lock: another connection writes at once while a long job runs. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitForStatus } from '../support/core';
import { nextTurn } from '../support/manual-clock';
import { handlerStarted, openTestCore, rawDb, tempDir } from './helpers';

describe('the database stays writable while handlers run', () => {
  it('another connection commits BEGIN IMMEDIATE writes with busy_timeout 0 during a long handler', async () => {
    const dir = tempDir();
    // One worker, no background writes of the runner's own during the window (renewals and sweeps
    // are minutes apart), so any lock we met could only be one held across the handler's run.
    const core = openTestCore({ libraryDir: dir, concurrency: 1, runner: { renewEveryMs: 60_000, sweepEveryMs: 60_000 } });
    const other = rawDb(dir, 0);
    try {
      expect(other.pragma('busy_timeout', { simple: true })).toBe(0);
      const log = path.join(dir, 'exec.log');
      const { job } = core.jobs.enqueue({ type: 'diag.ignore_abort', payload: { ms: 2500, key: 'long', log } });
      await handlerStarted(log, job.id); // the handler is busy in its worker now
      const upsert = other.prepare(
        'INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      );
      const write = other.transaction((i: number) => upsert.run('user.note', JSON.stringify({ i }), Date.now()));
      for (let i = 0; i < 5; i++) {
        write.immediate(i); // throws SQLITE_BUSY at once if anyone held the write lock
        await nextTurn(); // main's event loop turns between the writes (a cycle could run)
      }
      expect(core.jobs.queries.get(job.id)!.status).toBe('running');
      expect(core.settings.getFlag('user.note', null)).toEqual({ i: 4 });
      // Reads never wait either, and the job still commits afterwards.
      expect(other.prepare('SELECT status FROM background_jobs WHERE id = ?').pluck().get(job.id)).toBe('running');
      await waitForStatus(core, job.id, ['success']);
    } finally {
      other.close();
      await core.close();
    }
  });
});
