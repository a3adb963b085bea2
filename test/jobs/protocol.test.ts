/**
 * The process boundary, from main's side, with a real child process: a worker that sends a
 * message that is not the protocol's is replaced; main neither crashes nor reads it as a
 * result, and the job it held fails with a readable reason and is retried like any crash.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { forkWorkerSpawner } from '../../src/main/jobs/fork-worker';
import { waitForStatus } from '../support/core';
import { events, openTestCore } from './helpers';

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

describe('a worker that does not speak the protocol', () => {
  it('is replaced; its job fails (retryable, then final) with a readable reason', async () => {
    const spawn = forkWorkerSpawner(path.join(import.meta.dirname, 'fixtures', 'nonsense-worker.mjs'));
    core = openTestCore({ spawn, concurrency: 1 });
    const { job } = core.jobs.enqueue({ type: 'diag.noop', payload: {} });
    const row = await waitForStatus(core, job.id, ['failed']);
    expect(row.error_message).toBe('The worker process sent a message Circa could not read, so it was replaced');
    expect(row.attempt).toBe(row.max_retries + 1);
    expect(events(core, job.id).filter((e) => e === 'failed')).toHaveLength(row.max_retries + 1);
    // Nothing was taken for a result: no attempt succeeded, and the runner goes on.
    expect(core.runner!.getStats()).toMatchObject({ succeeded: 0, failed: 1 });
  });
});
