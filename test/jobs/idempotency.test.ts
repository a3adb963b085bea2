/** At most one active job per (type, subject): duplicates return the existing job, reruns after a terminal one create a new job. */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { waitForStatus } from '../support/core';
import { events, openTestCore, rawDb, tempDir } from './helpers';

const run = promisify(execFile);
let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

describe('idempotent enqueue', () => {
  it('a duplicate enqueue returns the active job instead of an error', () => {
    core = openTestCore({ runJobs: false });
    const first = core.jobs.enqueue({ type: 'diag.sleep', payload: { ms: 5, key: 'p1' } });
    const again = core.jobs.enqueue({ type: 'diag.sleep', payload: { ms: 999, key: 'p1' } });
    expect(first.created).toBe(true);
    expect(again).toMatchObject({ created: false, job: { id: first.job.id, status: 'queued' } });
    // Same subject, other type; other subject, same type: separate work.
    expect(core.jobs.enqueue({ type: 'diag.fail', payload: { message: 'x', mode: 'permanent', key: 'p1' } }).created).toBe(true);
    expect(core.jobs.enqueue({ type: 'diag.sleep', payload: { ms: 5, key: 'p2' } }).created).toBe(true);
    // Duplicates inside one batch collapse too.
    const batch = core.jobs.enqueueMany([
      { type: 'diag.sleep', payload: { ms: 1, key: 'p3' } },
      { type: 'diag.sleep', payload: { ms: 1, key: 'p3' } },
      { type: 'diag.sleep', payload: { ms: 1 } },
      { type: 'diag.sleep', payload: { ms: 1 } },
    ]);
    expect(batch.map((b) => b.created)).toEqual([true, false, true, true]);
    expect(batch[1].job.id).toBe(batch[0].job.id);
    expect(batch[3].job.id).toBeGreaterThan(batch[2].job.id); // no subject: no dedupe
    expect(events(core, first.job.id)).toEqual(['enqueued']); // the duplicate is not an event
  });

  it('a rerun after a terminal job creates a new one; "try again" twice works', async () => {
    core = openTestCore({ concurrency: 1 });
    const { job } = core.jobs.enqueue({ type: 'diag.fail', payload: { message: 'bad scan', mode: 'permanent', key: 'again' } });
    await waitForStatus(core, job.id, ['failed']);
    core.runner!.setPaused(true); // keep the rerun queued while "try again" is clicked twice
    // A permanent failure is retried only when asked to anyway (see failures-seen.test.ts).
    const force = { force: true };
    const retry1 = core.jobs.retry(job.id, force);
    expect(retry1.created).toBe(true);
    expect(retry1.job.id).not.toBe(job.id);
    const retry2 = core.jobs.retry(job.id, force);
    expect(retry2).toMatchObject({ created: false, job: { id: retry1.job.id, status: 'queued' } });
    core.runner!.setPaused(false);
    await waitForStatus(core, retry1.job.id, ['failed']);
    // After the rerun is terminal too, a further "try again" (on either job) creates another.
    const retry3 = core.jobs.retry(job.id, force);
    expect(retry3.created).toBe(true);
    await waitForStatus(core, retry3.job.id, ['failed']);
    const retry4 = core.jobs.retry(retry1.job.id, force);
    expect(retry4.created).toBe(true);
    await waitForStatus(core, retry4.job.id, ['failed']);
    // A cancelled job can be rerun the same way, and retry-all-failed creates one job per piece of work.
    const c = core.jobs.enqueue({ type: 'diag.sleep', payload: { ms: 60_000, key: 'to-cancel' } });
    core.jobs.cancel(c.job.id);
    await waitForStatus(core, c.job.id, ['cancelled']);
    expect(core.jobs.retry(c.job.id).created).toBe(true);
    // Retry-all leaves permanent failures to the archivist (one unseen: the latest attempt's).
    expect(core.jobs.retryAllFailed(['diag.fail'])).toEqual({ requeued: 0, skippedPermanent: 1 });
  });

  it('concurrent enqueues of the same work from two OS processes produce one job each and no error', async () => {
    const dir = tempDir();
    core = openTestCore({ libraryDir: dir, runJobs: false }); // creates and migrates the library first
    const KEYS = 150;
    const ROUNDS = 2;
    const startAt = String(Date.now() + 2500);
    const child = path.join(import.meta.dirname, 'fixtures', 'enqueue-race.ts');
    const outs = await Promise.all(
      [0, 1].map(() =>
        run(process.execPath, ['--import', 'tsx', child, dir, startAt, String(KEYS), String(ROUNDS)], { timeout: 60_000 }),
      ),
    );
    const results = outs.map(
      (o) =>
        JSON.parse(o.stdout.trim().split('\n').at(-1)!) as {
          created: number;
          duplicates: number;
          errors: string[];
          ids: Record<string, number[]>;
        },
    );
    for (const r of results) expect(r.errors).toEqual([]);
    expect(results[0].created + results[1].created).toBe(KEYS);
    expect(results[0].duplicates + results[1].duplicates).toBe(KEYS * (2 * ROUNDS - 1));
    // Both processes were told the same job for each key.
    for (let k = 0; k < KEYS; k++) {
      const seen = new Set([...results[0].ids[`race-${k}`], ...results[1].ids[`race-${k}`]]);
      expect(seen.size).toBe(1);
    }
    const raw = rawDb(dir);
    try {
      const rows = raw
        .prepare(`SELECT subject, count(*) AS n FROM background_jobs WHERE type = 'diag.sleep' GROUP BY subject`)
        .all() as {
        subject: string;
        n: number;
      }[];
      expect(rows.length).toBe(KEYS);
      expect(rows.every((r) => r.n === 1)).toBe(true);
      expect(raw.prepare(`SELECT count(*) FROM audit_events WHERE event = 'enqueued'`).pluck().get()).toBe(KEYS);
    } finally {
      raw.close();
    }
    expect(core.ledger.verify().ok).toBe(true);
  }, 60_000);
});
