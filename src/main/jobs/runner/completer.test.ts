/** Group commit on a real SQLite file, no processes: each outcome lands or rolls back alone. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AuditLedger } from '../../audit/ledger';
import { appPaths } from '../../app-paths';
import { openDatabase, type LibraryDb } from '../../db/open';
import { JobRegistry, diagnosticMainHalves, type MainHalves } from '../registry';
import { JobQueries } from '../store/queries';
import { JobTransitions } from '../store/transitions';
import type { ProductJobTypes } from '../../../shared/jobs/types';
import { Completer, type Outcome } from './completer';
import { silentLogger } from './logger';
import { prepareJob, type RunningJob } from './running-job';

let db: LibraryDb | undefined;
afterEach(async () => {
  await db?.close();
  db = undefined;
});

function setup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-completer-'));
  db = openDatabase({ file: path.join(dir, 'circa.db'), migrationsFolder: appPaths().migrations, backgroundCheckpoints: false });
  const transitions = new JobTransitions(db, new AuditLedger(db.sqlite, { keyFile: path.join(dir, 'audit.key') }));
  const queries = new JobQueries(db.sqlite);
  // What diagnostic applies wrote and committed (a marker row per job key).
  const put = db.sqlite.prepare('INSERT INTO settings (key, value, updated_at) VALUES (?, ?, 0)');
  const writes = () => db!.sqlite.prepare(`SELECT key FROM settings WHERE key LIKE 'diag.%' ORDER BY key`).pluck().all();
  const registry = new JobRegistry(
    {} as MainHalves<ProductJobTypes>,
    diagnosticMainHalves((k, v) => put.run(k, v)),
  );
  const completer = new Completer(transitions, 30_000, silentLogger);
  /** Enqueues and claims n diag.noop jobs with keys k0…, as a worker slot would hold them. */
  const held = (n: number): RunningJob[] => {
    transitions.enqueue(
      Array.from({ length: n }, (_, i) => ({ type: 'diag.noop', payload: { key: `k${i}` }, subject: null, maxRetries: 2 })),
      'test',
    );
    const rows = transitions.claim('host:1:x/w0', 30_000, { max: n, types: ['diag.noop'], depth: () => n });
    return rows.map((row) => {
      const p = prepareJob(row, { id: row.id, attempt: row.attempt, claimedBy: 'host:1:x/w0' }, registry);
      if ('error' in p) throw new Error(p.error.message);
      return p.job;
    });
  };
  const ok = (job: RunningJob, output: unknown = { pid: 1 }): Outcome => ({
    kind: 'result',
    job,
    msg: { t: 'result', jobId: job.lease.id, attempt: job.lease.attempt, ok: true, output },
    output: job.definition.output.safeParse(output),
  });
  return { transitions, queries, registry, completer, held, ok, writes };
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
    db!.sqlite.prepare(`UPDATE background_jobs SET claimed_by = 'other:2:y/w0' WHERE id = ?`).run(a.lease.id);
    const { settled } = completer.commit([ok(a)], () => null);
    expect(settled.discarded).toBe(1);
    expect(writes()).toEqual([]);
    expect(queries.get(a.lease.id)!.status).toBe('running');
  });
});
