/**
 * The rebuild writes what a serial recompute would: for every photo, the stored state, ends and
 * explained estimate equal the engine's over its current evidence, whichever way the rebuild wrote
 * them (every column when the state or an end moves, the explanation alone when they stay), and
 * the per-state counts the grid reads stay true.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { REBUILD_CHUNK } from '../../src/main/dating/rebuild-job';
import { toEvidenceInput } from '../../src/main/evidence/evidence-store';
import { estimate } from '../../src/shared/dating';
import { openTestCore, waitForStatus } from '../support/core';

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

type Ev = [
  source: string,
  kind: 'bound' | 'estimate',
  earliest: number | null,
  latest: number | null,
  confidence: number | null,
  review: string,
];

/** Evidence shapes a library has: dated, pending only, conflicting bounds, nothing at all. */
function evidenceFor(i: number): Ev[] {
  const y = 1900 + (i % 80);
  switch (i % 5) {
    case 0:
      return [
        ['exif', 'bound', null, 20050101 + (i % 12) * 100, null, 'accepted'],
        ['ocr', 'estimate', y * 10000 + 1220, y * 10000 + 1231, 0.8, 'pending'],
        ['ai', 'estimate', (y - 5) * 10000 + 101, (y + 5) * 10000 + 1231, 0.3, 'pending'],
        ['manual', 'bound', (y - 10) * 10000 + 101, null, null, 'accepted'],
        ['ai', 'estimate', (y - 20) * 10000 + 101, (y + 20) * 10000 + 1231, 0.2, 'rejected'],
      ];
    case 1:
      return [['ai', 'estimate', (y - 5) * 10000 + 101, (y + 5) * 10000 + 1231, 0.4, 'pending']];
    case 2:
      return [
        ['manual', 'bound', (y + 10) * 10000 + 101, null, null, 'accepted'],
        ['manual', 'bound', null, y * 10000 + 1231, null, 'accepted'],
      ];
    case 3:
      return [];
    default:
      return [['manual', 'bound', y * 10000 + 101, (y + 9) * 10000 + 1231, null, 'accepted']];
  }
}

function seed(c: Core, n: number): number[] {
  const insPhoto = c.db.sqlite.prepare(
    'INSERT INTO photos (sha256, path, filename, size, imported_at, updated_at) VALUES (?, ?, ?, 1, 0, 0) RETURNING id',
  );
  const insEv = c.db.sqlite.prepare(
    `INSERT INTO evidence (photo_id, source, kind, earliest, latest, confidence, summary, review_status, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, 'seeded', ?, 0, 0)`,
  );
  return c.db.immediate(() =>
    Array.from({ length: n }, (_, i) => {
      const { id } = insPhoto.get(`${i}`.padStart(64, '0'), `/p/${i}.jpg`, `${i}.jpg`) as { id: number };
      for (const e of evidenceFor(i)) insEv.run(id, ...e);
      return id;
    }),
  );
}

const stored = (c: Core) =>
  c.db.sqlite
    .prepare('SELECT id, estimate_status, estimate_earliest, estimate_latest, estimate FROM photos ORDER BY id')
    .all() as {
    id: number;
    estimate_status: string;
    estimate_earliest: number | null;
    estimate_latest: number | null;
    estimate: string | null;
  }[];

/** What the serial path (one photo at a time, in main) computes from the photo's current evidence. */
const serial = (c: Core, id: number) => {
  const e = estimate(c.evidence.current(id).map(toEvidenceInput));
  return { id, estimate_status: e.status, estimate_earliest: e.earliest, estimate_latest: e.latest, estimate: e };
};

describe('constraint_rebuild writes what a serial recompute would', () => {
  it('for moved and unmoved estimates alike, with the state counts kept', async () => {
    core = openTestCore();
    const ids = seed(core, REBUILD_CHUNK + 57);
    // A third's stored estimates are right but for their explanation (as after a wording change in
    // the engine), a third are wrong in their ends, the rest were never computed.
    const setStored = core.db.sqlite.prepare(
      'UPDATE photos SET estimate_status = ?, estimate_earliest = ?, estimate_latest = ?, estimate = ? WHERE id = ?',
    );
    core.db.immediate(() => {
      ids.forEach((id, i) => {
        const want = serial(core!, id);
        if (i % 3 === 0) setStored.run(want.estimate_status, want.estimate_earliest, want.estimate_latest, '{"stale":true}', id);
        if (i % 3 === 1) setStored.run('conflict', 18000101, 18001231, '{"stale":true}', id);
      });
    });
    const { job } = core.jobs.enqueue({ type: 'constraint_rebuild', payload: {} });
    expect((await waitForStatus(core, job.id, ['success', 'failed'], 60_000)).status).toBe('success');

    const got = stored(core).map((r) => ({ ...r, estimate: r.estimate && JSON.parse(r.estimate) }));
    expect(got).toEqual(ids.map((id) => JSON.parse(JSON.stringify(serial(core!, id)))));
    expect(new Set(got.map((r) => r.estimate_status))).toEqual(new Set(['estimated', 'needs_review', 'conflict', 'undated']));

    const counted = core.db.sqlite
      .prepare(`SELECT 'estimate:' || estimate_status AS key, count(*) AS n FROM photos GROUP BY estimate_status`)
      .all() as { key: string; n: number }[];
    for (const { key, n } of counted)
      expect(core.db.sqlite.prepare('SELECT n FROM photo_counts WHERE key = ?').pluck().get(key), key).toBe(n);
  });

  it('skips a photo whose evidence changed after its chunk was read: that change recomputed it', async () => {
    core = openTestCore({ concurrency: 1 });
    const ids = seed(core, 40);
    const changedPhoto = ids[7];
    const real = core.jobs.registry.get('constraint_rebuild')!.half;
    core.jobs.registry.replaceHalf('constraint_rebuild', {
      ...real,
      load(job, main) {
        const input = real.load(job, main);
        // The archivist adds a bound while the worker estimates the chunk read just now.
        core!.db.immediate(() =>
          core!.evidence.add(
            changedPhoto,
            'manual',
            { kind: 'bound', earliest: 19500101, latest: null, confidence: null, summary: 'after' },
            'accepted',
          ),
        );
        return input;
      },
    });
    const { job } = core.jobs.enqueue({ type: 'constraint_rebuild', payload: {} });
    expect((await waitForStatus(core, job.id, ['success', 'failed'], 60_000)).status).toBe('success');
    const got = stored(core).map((r) => ({ ...r, estimate: r.estimate && JSON.parse(r.estimate) }));
    expect(got).toEqual(ids.map((id) => JSON.parse(JSON.stringify(serial(core!, id)))));
  });
});
