/** Handlers that throw: retry with backoff, exhaustion, permanent errors, retry-later, and apply failures. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { BACKOFF_BASE_MS } from '../../src/main/jobs/backoff';
import { waitForStatus } from '../support/core';
import { marker, openTestCore, trail, waitFor } from './helpers';

let core: Core;
beforeAll(() => {
  core = openTestCore({ concurrency: 1 });
});
afterAll(() => core.close());

/** Waits for a queued job to have been charged `n` retries (or to be terminal). */
const waitRetries = (id: number, n: number) =>
  waitFor(
    () => {
      const r = core.jobs.queries.get(id)!;
      return (r.status === 'queued' && r.retry_count === n) || r.status === 'failed' ? r : undefined;
    },
    30_000,
    `job ${id} to have ${n} retries`,
  );

describe('a handler that throws', () => {
  it('is retried with backoff while retries remain, writes nothing, then fails with a readable error', async () => {
    const { job } = core.jobs.enqueue({
      type: 'diag.fail',
      payload: { message: 'scanner offline', mode: 'retryable', key: 'r1' },
    });
    expect(job.maxRetries).toBe(2);

    let row = await waitRetries(job.id, 1);
    expect(row.status).toBe('queued');
    expect(row.attempt).toBe(1);
    expect(row.error_message).toBe('scanner offline');
    expect(row.error_stack).toContain('scanner offline');
    expect(row.claimed_by).toBeNull();
    expect(row.finished_at).toBeNull();
    let failedAt = trail(core, job.id).at(-1)!;
    expect(failedAt).toMatchObject({ event: 'failed', data: { attempt: 1, retryable: true, permanent: false } });
    // 30 s backoff (±10 % jitter) from the moment of the failure.
    expect(row.run_after - failedAt.at).toBeGreaterThanOrEqual(BACKOFF_BASE_MS * 0.9);
    expect(row.run_after - failedAt.at).toBeLessThanOrEqual(BACKOFF_BASE_MS * 1.1);
    expect(marker(core, 'diag.fail', 'r1')).toBeUndefined();

    // "Retry now" on a queued job makes it ready at once; the second failure doubles the delay.
    expect(core.jobs.retry(job.id).created).toBe(false);
    row = await waitRetries(job.id, 2);
    failedAt = trail(core, job.id).at(-1)!;
    expect(row.attempt).toBe(2);
    expect(row.run_after - failedAt.at).toBeGreaterThanOrEqual(2 * BACKOFF_BASE_MS * 0.9);
    expect(row.run_after - failedAt.at).toBeLessThanOrEqual(2 * BACKOFF_BASE_MS * 1.1);

    core.jobs.retry(job.id);
    row = await waitForStatus(core, job.id, ['failed']);
    expect(row.attempt).toBe(3);
    expect(row.retry_count).toBe(2);
    expect(row.error_message).toBe('scanner offline');
    expect(row.finished_at).not.toBeNull();
    expect(row.idempotency_key).toBeNull();
    expect(marker(core, 'diag.fail', 'r1')).toBeUndefined();
    expect(trail(core, job.id).map((e) => e.event)).toEqual([
      'enqueued',
      'claimed',
      'failed',
      'run_now',
      'claimed',
      'failed',
      'run_now',
      'claimed',
      'failed',
    ]);
    expect(trail(core, job.id).at(-1)!.data).toMatchObject({ attempt: 3, retryable: false, message: 'scanner offline' });
    expect(core.jobs.get(job.id).errorMessage).toBe('scanner offline');
  });

  it('fails at once on a PermanentJobError', async () => {
    const { job } = core.jobs.enqueue({
      type: 'diag.fail',
      payload: { message: 'not a photograph', mode: 'permanent', key: 'p1' },
    });
    const row = await waitForStatus(core, job.id, ['failed']);
    expect(row).toMatchObject({ attempt: 1, retry_count: 0, error_message: 'not a photograph' });
    expect(trail(core, job.id).at(-1)!.data).toMatchObject({ retryable: false, permanent: true });
    expect(marker(core, 'diag.fail', 'p1')).toBeUndefined();
  });

  it('requeues a retry_later request without charging a retry', async () => {
    const { job } = core.jobs.enqueue({ type: 'diag.fail', payload: { message: 'HTTP 429', mode: 'retry_later', key: 'l1' } });
    let row = await waitFor(() => {
      const r = core.jobs.queries.get(job.id)!;
      return r.status === 'queued' && r.attempt === 1 ? r : undefined;
    });
    const ev = trail(core, job.id).at(-1)!;
    expect(ev.event).toBe('retry_later');
    expect(row.retry_count).toBe(0);
    expect(row.run_after - ev.at).toBe(60_000); // the handler asked for 60 s
    expect(row.error_message).toBe('HTTP 429');
    // Asked again and again: never exhausts the retries.
    for (let attempt = 2; attempt <= 4; attempt++) {
      core.jobs.retry(job.id);
      row = await waitFor(() => {
        const r = core.jobs.queries.get(job.id)!;
        return r.status === 'queued' && r.attempt === attempt ? r : undefined;
      });
      expect(row.retry_count).toBe(0);
    }
    expect(core.jobs.cancel(job.id).status).toBe('cancelled');
  });
});

describe('an apply that throws', () => {
  it('rolls back its own writes and the success mark; other results in the same commit still land', async () => {
    const lib = openTestCore({ concurrency: 1 });
    try {
      // Replace diag.noop's main half: apply writes a row, then throws for odd keys.
      const put = lib.db.sqlite.prepare('INSERT INTO settings (key, value, updated_at) VALUES (?, ?, 0)');
      lib.jobs.registry.replaceHalf('diag.noop', {
        load: (job) => job.payload,
        apply: (_out, job) => {
          const { key } = job.payload as { key: string };
          put.run(`partial.${key}`, '1');
          if (Number(key.slice(1)) % 2) throw new Error(`constraint violated for ${key}`);
          return 'ok';
        },
      });
      lib.runner!.setPaused(true);
      const jobs = lib.jobs.enqueueMany(Array.from({ length: 20 }, (_, i) => ({ type: 'diag.noop', payload: { key: `k${i}` } })));
      lib.runner!.setPaused(false);
      // Every job has had its one attempt: succeeded, or requeued (with backoff) after its apply threw.
      await waitFor(() =>
        jobs.every(
          ({ job }) =>
            ['success', 'queued'].includes(lib.jobs.queries.get(job.id)!.status) && lib.jobs.queries.get(job.id)!.attempt === 1,
        ),
      );
      for (const [i, { job }] of jobs.entries()) {
        const row = lib.jobs.queries.get(job.id)!;
        const partial = lib.db.sqlite.prepare('SELECT value FROM settings WHERE key = ?').pluck().get(`partial.k${i}`);
        if (i % 2) {
          expect(row.status).toBe('queued');
          expect(row.retry_count).toBe(1);
          expect(row.error_message).toBe(`Could not save the result: constraint violated for k${i}`);
          expect(partial).toBeUndefined();
          expect(trail(lib, job.id).map((e) => e.event)).toEqual(['enqueued', 'claimed', 'failed']);
        } else {
          expect(row.status).toBe('success');
          expect(partial).toBe('1');
          expect(trail(lib, job.id).map((e) => e.event)).toEqual(['enqueued', 'claimed', 'succeeded']);
        }
      }
      expect(lib.ledger.verify().ok).toBe(true);
    } finally {
      await lib.close();
    }
  });
});
