import { execSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { REBUILD_CHUNK, type RebuildPayload } from '../../src/main/dating/rebuild-job';
import { openTestCore, waitForStatus } from '../support/core';

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

/** Photos with evidence but a stale stored estimate (as after an engine change). */
function seed(c: Core, n: number): number[] {
  const ids: number[] = [];
  c.db.immediate(() => {
    const insPhoto = c.db.sqlite.prepare(
      'INSERT INTO photos (sha256, path, filename, size, imported_at, updated_at) VALUES (?, ?, ?, 1, 0, 0) RETURNING id',
    );
    const insEv = c.db.sqlite.prepare(
      `INSERT INTO evidence (photo_id, source, kind, earliest, latest, confidence, summary, review_status, created_at, updated_at)
       VALUES (?, 'manual', 'bound', ?, ?, NULL, 'between', 'accepted', 0, 0)`,
    );
    for (let i = 0; i < n; i++) {
      const { id } = insPhoto.get(`${i}`.padStart(64, '0'), `/p/${i}.jpg`, `${i}.jpg`) as { id: number };
      insEv.run(id, 19300101 + (i % 50) * 10000, 19401231 + (i % 50) * 10000);
      ids.push(id);
    }
  });
  return ids;
}

describe('constraint_rebuild', () => {
  it('recomputes the whole library in checkpointed steps within one attempt', async () => {
    core = openTestCore();
    const n = REBUILD_CHUNK * 2 + 17;
    const ids = seed(core, n);
    expect(core.photos.list({ sort: 'imported', filter: 'undated', limit: 1 }).total).toBe(n);
    const { job } = core.jobs.enqueue({ type: 'constraint_rebuild', payload: {} });
    const done = await waitForStatus(core, job.id, ['success', 'failed'], 60_000);
    expect(done.status).toBe('success');
    expect(done.attempt).toBe(1);
    expect(done.result_summary).toBe(`${n} of ${n} estimates recomputed`);
    expect(core.photos.list({ sort: 'imported', filter: 'undated', limit: 1 }).total).toBe(0);
    const first = core.photos.get(ids[0])!;
    expect([first.estimate_status, first.estimate_earliest, first.estimate_latest]).toEqual(['estimated', 19300101, 19401231]);
    // Each step's checkpoint is stored with the job: a crash would resume after the last committed
    // step. Steps are sized by main's measured time (rebuild-pace.ts), so the last one is not known.
    const cursor = (JSON.parse(done.payload) as RebuildPayload).cursor!;
    expect(cursor.total).toBe(n);
    expect(cursor.done).toBeGreaterThan(0);
    expect(cursor.done).toBeLessThan(n);
    expect(cursor.afterId).toBe(ids[cursor.done - 1]);
    expect(core.ledger.verify().ok).toBe(true);
  });

  it('recomputes just a selection', async () => {
    core = openTestCore();
    const ids = seed(core, 30);
    const { job } = core.jobs.enqueue({ type: 'constraint_rebuild', payload: { photoIds: ids.slice(0, 5) } });
    expect((await waitForStatus(core, job.id, ['success', 'failed'])).status).toBe('success');
    expect(core.photos.list({ sort: 'imported', filter: 'undated', limit: 1 }).total).toBe(25);
  });

  it('a worker killed mid-way: the next attempt resumes after the last committed step, not from the start', async () => {
    core = openTestCore({ concurrency: 1 });
    const n = REBUILD_CHUNK * 4 + 3;
    const ids = seed(core, n);
    // Watch each step's load (main's half), and kill the worker as the third step is handed to it.
    const real = core.jobs.registry.get('constraint_rebuild')!.half;
    const steps: { attempt: number; afterId: number }[] = [];
    core.jobs.registry.replaceHalf('constraint_rebuild', {
      ...real,
      load(job, main) {
        const cursor = (job.payload as RebuildPayload).cursor;
        steps.push({ attempt: job.attempt, afterId: cursor?.afterId ?? 0 });
        if (job.attempt === 1 && steps.length === 3) {
          // Our only worker process: the job's attempt dies with it, after two committed steps.
          const pids = execSync(`pgrep -P ${process.pid} -f src/worker/index.ts`).toString().trim().split('\n').map(Number);
          for (const pid of pids) process.kill(pid, 'SIGKILL');
        }
        return real.load(job, main);
      },
    });
    const { job } = core.jobs.enqueue({ type: 'constraint_rebuild', payload: {} });
    const done = await waitForStatus(core, job.id, ['success', 'failed'], 120_000);
    expect(done).toMatchObject({ status: 'success', attempt: 2, retry_count: 1 });
    // Steps are sized by main's measured time (rebuild-pace.ts): their ends are read, not computed.
    const first = steps.filter((s) => s.attempt === 1);
    const second = steps.filter((s) => s.attempt === 2);
    expect(first).toHaveLength(3);
    expect(first[0].afterId).toBe(0);
    expect(first[1].afterId).toBeGreaterThan(0);
    expect(first[2].afterId).toBeGreaterThan(first[1].afterId);
    // The second attempt starts from the checkpoint of the last committed step, and goes on from there.
    expect(second[0].afterId).toBe(first[2].afterId);
    for (let i = 1; i < second.length; i++) expect(second[i].afterId).toBeGreaterThan(second[i - 1].afterId);
    expect(second.at(-1)!.afterId).toBeLessThan(ids.at(-1)!);
    expect(done.result_summary).toBe(`${n} of ${n} estimates recomputed`);
    expect(core.photos.list({ sort: 'imported', filter: 'undated', limit: 1 }).total).toBe(0);
  }, 150_000); // a worker is started three times; slow on a crowded machine

  it('a second rebuild that moves no estimate writes no photo row', async () => {
    core = openTestCore();
    const ids = seed(core, 30);
    const rebuild = async () => {
      const { job } = core!.jobs.enqueue({ type: 'constraint_rebuild', payload: {} });
      expect((await waitForStatus(core!, job.id, ['success', 'failed'])).status).toBe('success');
    };
    await rebuild();
    const stamps = () => core!.db.sqlite.prepare('SELECT id, updated_at, estimate FROM photos ORDER BY id').all();
    const before = stamps();
    expect(before).toHaveLength(ids.length);
    await new Promise((r) => setTimeout(r, 5)); // a rewrite would now carry a later updated_at
    await rebuild();
    expect(stamps()).toEqual(before);
  });
});
