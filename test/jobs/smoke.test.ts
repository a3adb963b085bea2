import { afterEach, describe, expect, it } from 'vitest';
import { openTestCore, waitForStatus } from '../support/core';
import type { Core } from '../../src/main/core/core';

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

describe('job runtime smoke', () => {
  it('runs a queued job to success with no manual step', async () => {
    core = openTestCore();
    const { job } = core.jobs.enqueue({ type: 'diag.sleep', payload: { ms: 10, key: 'a' } });
    const row = await waitForStatus(core, job.id, ['success']);
    expect(row.attempt).toBe(1);
    expect(core.ledger.verify().ok).toBe(true);
  });
});
