import { afterEach, describe, expect, it } from 'vitest';
import { OWNER, openCompleterFixture } from '../../../../test/jobs/completer-fixture';
import { Housekeeping, isOwnerGone } from './housekeeping';

describe('isOwnerGone', () => {
  const alive = (pid: number) => pid === 200;
  it('is true only for a runner of this host whose process does not exist', () => {
    expect(isOwnerGone('box:100:ab12cd/w0', 'box', alive)).toBe(true);
    expect(isOwnerGone('box:200:ab12cd/w3', 'box', alive)).toBe(false); // alive
    expect(isOwnerGone('other:100:ab12cd/w0', 'box', alive)).toBe(false); // another machine: cannot know
    expect(isOwnerGone(`box:${process.pid}:ab12cd/w0`, 'box', () => false)).toBe(false); // this very process
    expect(isOwnerGone('gone:1/w0', 'box', alive)).toBe(false); // not a runner id we write
    expect(isOwnerGone('host.with:colons:100:ab12cd/w1', 'host.with:colons', alive)).toBe(true);
  });
});

describe('Housekeeping.reclaimLapsed', () => {
  let fixture: ReturnType<typeof openCompleterFixture> | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  /** Jobs on their last attempt whose lease has already lapsed (claimed with a lease of -1 ms). */
  function lapsed(payloads: unknown[]) {
    fixture = openCompleterFixture();
    const f = fixture;
    f.transitions.enqueue(
      payloads.map((payload) => ({ type: 'diag.noop', payload, subject: null, maxRetries: 0 })),
      'test',
    );
    const rows = f.transitions.claim(OWNER, -1, { max: payloads.length, types: 'any', depth: () => payloads.length });
    const seen: unknown[] = [];
    f.registry.replaceHalf('diag.noop', {
      load: (job) => job.payload,
      apply: () => null,
      onFailed: (job) => {
        seen.push(job.payload);
        f.put.run(`onFailed.${job.id}`, 'x');
        if ((job.payload as { key: string }).key === 'bad') throw new Error('the photo row is gone');
      },
    });
    const housekeeping = new Housekeeping({
      transitions: f.transitions,
      registry: f.registry,
      runnerId: 'rescuer:1:z',
      leaseMs: 30_000,
      retentionMs: () => 0,
    });
    return { f, rows, seen, housekeeping };
  }

  it('an onFailed that throws fails that job alone, with one audit entry, and the sweep goes on', () => {
    const { f, rows, housekeeping } = lapsed([{ key: 'bad' }, { key: 'good' }]);
    expect(housekeeping.reclaimLapsed().sort()).toEqual(rows.map((r) => r.id).sort());
    const [bad, good] = rows.map((r) => f.queries.get(r.id)!);
    expect(bad.status).toBe('failed');
    expect(bad.error_message).toMatch(/stopped answering.*onFailed failed: the photo row is gone/);
    expect(good.status).toBe('failed');
    expect(f.audited(bad.id)).toEqual(['enqueued', 'claimed', 'reclaimed']);
    expect(f.writes('onFailed.')).toEqual([`onFailed.${good.id}`]);
    expect(f.ledger.verify().ok).toBe(true);
  });

  it('hands onFailed only a payload its schema accepts', () => {
    const { f, rows, seen, housekeeping } = lapsed([{ key: 'fine' }, { key: 'altered' }]);
    // Edited outside Circa (or written by another version): no longer a diag.noop payload.
    f.db.sqlite.prepare(`UPDATE background_jobs SET payload = '{"key": 42}' WHERE id = ?`).run(rows[1].id);
    housekeeping.reclaimLapsed();
    expect(seen).toEqual([{ key: 'fine' }]);
    expect(f.queries.get(rows[1].id)!.status).toBe('failed');
  });
});
