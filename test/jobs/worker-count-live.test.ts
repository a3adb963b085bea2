/**
 * The worker count from Settings applies live: the pool grows and shrinks without a restart, a
 * worker busy with a job finishes it before it leaves, and no job runs twice. Real worker
 * processes (forked from source) and a real library.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { waitForStatus } from '../support/core';
import { isAlive, marker, openTestCore, readLog, tempDir, waitFor, workersReady } from './helpers';

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

/** Pids of the worker processes that have run a handler and not yet ended it, from the jobs' log. */
function busyPids(log: string): Set<number> {
  const open = new Map<string, number>();
  for (const l of readLog(log)) {
    const key = `${l.id}/${l.attempt}`;
    if (l.kind === 'start') open.set(key, l.pid);
    else open.delete(key);
  }
  return new Set(open.values());
}

describe('the worker count, changed in Settings', () => {
  it('grows and shrinks the pool while jobs run; busy workers finish first and no job runs twice', async () => {
    const libraryDir = tempDir();
    core = openTestCore({ libraryDir, concurrency: undefined });
    core.settings.update({ workerCount: 1 });
    await workersReady(core, 1);
    expect(core.runner!.getStats().workersConfigured).toBe(1);

    const log = path.join(tempDir(), 'exec.log');
    const ids = Array.from({ length: 10 }, (_, i) => {
      const { job } = core!.jobs.enqueue({ type: 'diag.sleep', payload: { ms: 4000, key: `live-${i}`, log } });
      return job.id;
    });
    await waitFor(() => busyPids(log).size === 1, 30_000, 'the one worker to start a job');

    // Grow: three workers run jobs at the same time, without a restart.
    expect(await core.dispatch('settings.update', { workerCount: 3 })).toMatchObject({ ok: true });
    await waitFor(() => core!.runner!.getStats().workersAlive === 3, 30_000, 'three workers');
    expect(core.runner!.getStats().workersConfigured).toBe(3);
    await waitFor(() => busyPids(log).size === 3, 30_000, 'three jobs running at once');

    // Shrink while all three are busy: each finishes the job it runs, then two leave.
    const running = busyPids(log);
    core.settings.update({ workerCount: 1 });
    expect(core.runner!.getStats().workersConfigured).toBe(1);
    for (const id of ids) await waitForStatus(core, id, ['success'], 60_000);
    await waitFor(() => [...running].filter(isAlive).length === 1, 10_000, 'two workers to leave');
    await waitFor(() => core!.runner!.getStats().workersAlive === 1, 10_000, 'one worker left');

    const lines = readLog(log);
    for (const id of ids) {
      const mine = lines.filter((l) => l.id === id);
      // Exactly once: one start and one end, in the first attempt, and its result committed.
      expect(mine.map((l) => `${l.kind}@${l.attempt}`)).toEqual(['start@1', 'end@1']);
      expect(core.jobs.queries.get(id)).toMatchObject({ status: 'success', attempt: 1, retry_count: 0 });
    }
    // The workers that left had each finished the job they were running when the count fell.
    for (const pid of running) expect(lines.filter((l) => l.pid === pid && l.kind === 'end').length).toBeGreaterThan(0);
    expect(marker(core, 'diag.sleep', 'live-9')).toMatchObject({ attempt: 1 });
    expect(core.runner!.getStats().failed).toBe(0);
  }, 120_000);
});
