/**
 * One memory budget for all workers: on a machine with little memory (injected: 2 GB) the pool
 * runs fewer workers than Settings asks, each started with its share as heap limit, and the
 * health call says so for Settings. Real worker processes, forked from source.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { waitForStatus } from '../support/core';
import { openTestCore, workersReady } from './helpers';

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

describe('the workers’ memory budget', () => {
  it('runs two workers with 256 MB heaps on a 2 GB machine, asked for four; a runaway job dies at that limit', async () => {
    core = openTestCore({ concurrency: 4, runner: { totalMemoryMb: 2048 } });
    await workersReady(core, 2);
    const stats = core.runner!.getStats();
    expect(stats.workersConfigured).toBe(2);
    expect(stats.memory).toMatchObject({ requested: 4, workers: 2, maxWorkers: 2, heapMb: 256 });
    const health = await core.dispatch('app.health', {});
    expect(health).toMatchObject({
      ok: true,
      value: { workers: { configured: 2 }, workerMemory: { totalMb: 2048, workers: 2, maxWorkers: 2, heapMb: 256 } },
    });

    // The limit is the real process's: a job that allocates without end dies near 256 MB of old space.
    const { job } = core.jobs.enqueue({ type: 'diag.crash', payload: { mode: 'oom_yielding', key: 'budget' } });
    const row = await waitForStatus(core, job.id, ['failed'], 120_000);
    const figures = /ran out of memory \((?:heap (\d+) MB of (\d+) MB|heap limit (\d+) MB)\)/.exec(row.error_message ?? '');
    expect(figures, row.error_message ?? '').not.toBeNull();
    const limit = Number(figures![2] ?? figures![3]);
    expect(limit).toBeGreaterThanOrEqual(256);
    expect(limit).toBeLessThan(400); // the old space's 256 MB and the young generation, not the default 1 GB
  }, 180_000);
});
