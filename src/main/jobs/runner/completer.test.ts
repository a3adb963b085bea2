/** Group commit on a real SQLite file, no processes: each outcome lands or rolls back alone. */
import { afterEach, describe, expect, it } from 'vitest';
import { openCompleterFixture } from '../../../../test/jobs/completer-fixture';
import type { JobRegistry } from '../registry';

let fixture: ReturnType<typeof openCompleterFixture> | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

function setup() {
  fixture = openCompleterFixture();
  return fixture;
}

describe('Completer', () => {
  it('commits successes, failures and releases in one transaction, with the claims after them', () => {
    const { completer, queries, held, ok, writes } = setup();
    const [a, b, c, d] = held(4);
    const { settled, then } = completer.commit(
      [
        ok(a),
        ok(b, { nonsense: true }),
        { kind: 'fail', job: c, error: { kind: 'permanent', message: 'bad file' } },
        { kind: 'release', job: d },
      ],
      () => 'claims ran',
    );
    expect(then).toBe('claims ran');
    expect(settled).toMatchObject({ succeeded: 1, failed: 2, discarded: 0 });
    expect(queries.get(a.lease.id)!.status).toBe('success');
    expect(writes()).toEqual(['diag.diag.noop.k0']);
    expect(queries.get(b.lease.id)!.error_message).toMatch(/handler returned output that does not match its schema: pid:/);
    expect(queries.get(c.lease.id)).toMatchObject({ status: 'failed', error_message: 'bad file' });
    expect(queries.get(d.lease.id)).toMatchObject({ status: 'queued', retry_count: 0 });
  });

  it('an apply that throws rolls back alone and is retried; the others still land', () => {
    const { completer, queries, registry, held, ok } = setup();
    const applied: string[] = [];
    registry.replaceHalf('diag.noop', {
      load: (job) => job.payload,
      apply: (_out, job) => {
        const key = (job.payload as { key: string }).key;
        applied.push(key);
        if (key === 'k1') throw new Error('constraint violated');
        return 'ok';
      },
    });
    const jobs = held(3);
    const { settled } = completer.commit(
      jobs.map((j) => ok(j)),
      () => null,
    );
    expect(settled).toMatchObject({ succeeded: 2, failed: 0 });
    expect(queries.get(jobs[1].lease.id)).toMatchObject({
      status: 'queued',
      retry_count: 1,
      error_message: 'Could not save the result: constraint violated',
    });
    // The fast path tried all three, then the careful path redid each in its own savepoint.
    expect(applied).toEqual(['k0', 'k1', 'k0', 'k1', 'k2']);
  });

  it('a result whose lease was lost is discarded and writes nothing', () => {
    const { completer, queries, transitions, held, ok, writes } = setup();
    const [a] = held(1);
    // Someone else took the job back (its lease lapsed) and requeued it.
    transitions.reclaimLapsed('other');
    fixture!.db.sqlite.prepare(`UPDATE background_jobs SET claimed_by = 'other:2:y/w0' WHERE id = ?`).run(a.lease.id);
    const { settled } = completer.commit([ok(a)], () => null);
    expect(settled.discarded).toBe(1);
    expect(writes()).toEqual([]);
    expect(queries.get(a.lease.id)!.status).toBe('running');
  });

  /** diag.noop with an onFailed that throws for key k1 (a bug in a type's bookkeeping). */
  function onFailedThrowsFor(registry: JobRegistry, bad: string, onFailed: string[] = []): void {
    registry.replaceHalf('diag.noop', {
      load: (job) => job.payload,
      apply: (_out, job) => {
        if ((job.payload as { key: string }).key === 'k0') throw new Error('apply refused');
        return 'ok';
      },
      onFailed: (job) => {
        const key = (job.payload as { key: string }).key;
        fixture!.db.sqlite.prepare(`INSERT INTO settings (key, value, updated_at) VALUES (?, 'x', 0)`).run(`onFailed.${key}`);
        onFailed.push(key);
        if (key === bad) throw new Error('the photo row is gone');
      },
    });
  }

  it('an onFailed that throws on the fast path fails that job alone; the rest of the batch commits', () => {
    const { completer, queries, registry, held, ok, audited, ledger } = setup();
    onFailedThrowsFor(registry, 'k2');
    const [, a, b, c] = held(4);
    const { settled } = completer.commit(
      [
        ok(a),
        { kind: 'fail', job: b, error: { kind: 'permanent', message: 'bad file' } },
        { kind: 'fail', job: c, error: { kind: 'permanent', message: 'unreadable' } },
      ],
      () => null,
    );
    expect(settled).toMatchObject({ succeeded: 1, failed: 2 });
    expect(queries.get(a.lease.id)!.status).toBe('success');
    const failedB = queries.get(b.lease.id)!;
    expect(failedB.status).toBe('failed');
    expect(failedB.error_message).toMatch(/^bad file/);
    expect(failedB.error_message).toMatch(/the photo row is gone/);
    expect(audited(b.lease.id)).toEqual(['enqueued', 'claimed', 'failed']);
    // The hook that worked kept its write; the one that threw wrote nothing.
    const hooks = fixture!.db.sqlite.prepare(`SELECT key FROM settings WHERE key LIKE 'onFailed.%'`).pluck().all();
    expect(hooks).toEqual(['onFailed.k3']);
    expect(queries.get(c.lease.id)).toMatchObject({ status: 'failed', error_message: 'unreadable' });
    expect(ledger.verify().ok).toBe(true);
  });

  it('an onFailed that throws on the savepoint path leaves one failed audit entry, not two', () => {
    const { completer, queries, registry, held, ok, audited, ledger } = setup();
    onFailedThrowsFor(registry, 'k1');
    const [a, b] = held(2);
    // k0's apply throws first, so the batch is redone with a savepoint per outcome.
    const { settled } = completer.commit(
      [ok(a), { kind: 'fail', job: b, error: { kind: 'permanent', message: 'bad file' } }],
      () => null,
    );
    expect(settled.failed).toBe(1);
    expect(queries.get(a.lease.id)).toMatchObject({ status: 'queued', retry_count: 1 });
    expect(queries.get(b.lease.id)!.status).toBe('failed');
    expect(audited(a.lease.id)).toEqual(['enqueued', 'claimed', 'failed']);
    expect(audited(b.lease.id)).toEqual(['enqueued', 'claimed', 'failed']);
    expect(ledger.verify().ok).toBe(true);
  });
});
