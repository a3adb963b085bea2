import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { REBUILD_CHUNK } from '../../src/main/dating/rebuild-job';
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
    // Each step's checkpoint is stored with the job: a crash would resume after the last committed step.
    expect(JSON.parse(done.payload).cursor).toMatchObject({ done: REBUILD_CHUNK * 2, total: n });
    expect(core.ledger.verify().ok).toBe(true);
  });

  it('recomputes just a selection', async () => {
    core = openTestCore();
    const ids = seed(core, 30);
    const { job } = core.jobs.enqueue({ type: 'constraint_rebuild', payload: { photoIds: ids.slice(0, 5) } });
    expect((await waitForStatus(core, job.id, ['success', 'failed'])).status).toBe('success');
    expect(core.photos.list({ sort: 'imported', filter: 'undated', limit: 1 }).total).toBe(25);
  });
});
