/**
 * A worker that runs out of heap is reported as out of memory with the heap it reached, even
 * where its adapter sees only a crash: an Electron utility process on Linux or macOS, whose heap
 * OOM goes through Chromium's OOM handler and leaves no V8 report to read. Here a real forked
 * child with a small heap limit, its stderr kept from the adapter to stand for that.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { exitKindOf, type SpawnWorker } from '../../src/main/jobs/worker-process';
import { sourceSpawner, waitForStatus } from '../support/core';
import { openTestCore, trail } from './helpers';

/** The real spawner's processes, ended as an adapter that never sees the V8 report would say. */
function withoutStderrVerdict(spawn: SpawnWorker): SpawnWorker {
  return (opts) => {
    const proc = spawn(opts);
    return {
      get pid() {
        return proc.pid;
      },
      send: (msg) => proc.send(msg),
      onMessage: (cb) => proc.onMessage(cb),
      kill: () => proc.kill(),
      onExit: (cb) => proc.onExit((exit) => cb({ ...exit, kind: exitKindOf(exit.code, exit.signal, ''), stderrTail: '' })),
    };
  };
}

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

describe('a worker that runs out of memory', () => {
  it('is reported as out of memory with the heap it last reported, where its adapter saw only a crash', async () => {
    core = openTestCore({ concurrency: 1, spawn: withoutStderrVerdict(sourceSpawner()), runner: { heapMb: 64 } });
    const { job } = core.jobs.enqueue({ type: 'diag.crash', payload: { mode: 'oom_yielding', key: 'oom-y' } });
    const row = await waitForStatus(core, job.id, ['failed'], 60_000);
    expect(row.attempt).toBe(2);
    const message = row.error_message ?? '';
    const figures = /^The worker process ran out of memory \(heap (\d+) MB of (\d+) MB\) while running this job$/.exec(message);
    expect(figures, message).not.toBeNull();
    const [used, limit] = [Number(figures![1]), Number(figures![2])];
    // V8's limit covers the 64 MB old space and the young generation; the old space was full.
    expect(limit).toBeGreaterThanOrEqual(64);
    expect(limit).toBeLessThan(128);
    expect(used).toBeGreaterThanOrEqual(0.7 * 64);
    expect(trail(core, job.id).filter((e) => e.event === 'failed')).toHaveLength(2);
  }, 90_000);

  it('a crash with a small heap still reads as a crash', async () => {
    core = openTestCore({ concurrency: 1, spawn: withoutStderrVerdict(sourceSpawner()) });
    const { job } = core.jobs.enqueue({ type: 'diag.crash', payload: { mode: 'exit', key: 'plain-crash' } });
    const row = await waitForStatus(core, job.id, ['failed'], 60_000);
    expect(row.error_message).toBe('The worker process crashed while running this job (signal SIGKILL)');
  }, 90_000);
});
