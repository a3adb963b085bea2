/**
 * A Completer over a real SQLite library and its audit ledger, with no runner and no processes:
 * jobs are enqueued and claimed as a worker slot would hold them, and outcomes committed directly.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AuditLedger } from '../../src/main/audit/ledger';
import { appPaths } from '../../src/main/app-paths';
import { openDatabase, type LibraryDb } from '../../src/main/db/open';
import { JobRegistry, diagnosticMainHalves, type MainHalves } from '../../src/main/jobs/registry';
import { JobQueries } from '../../src/main/jobs/store/queries';
import { JobTransitions } from '../../src/main/jobs/store/transitions';
import { Completer, type Outcome } from '../../src/main/jobs/runner/completer';
import { silentLogger } from '../../src/main/logger';
import { prepareJob } from '../../src/main/jobs/runner/running-job';
import type { Attempt } from '../../src/main/jobs/runner/attempt';
import type { ProductJobTypes } from '../../src/shared/jobs/types';

export const OWNER = 'host:1:x/w0';

/**
 * A library of its own (a temporary folder) with the job store over it and only the diagnostic
 * job types; each diagnostic `apply` writes a settings row `diag.<type>.<key>` (see `writes`).
 */
export function openJobsLibrary(prefix = 'circa-jobs-') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const db: LibraryDb = openDatabase({
    file: path.join(dir, 'circa.db'),
    migrationsFolder: appPaths().migrations,
    backgroundCheckpoints: false,
  });
  const ledger = new AuditLedger(db.sqlite, { keyFile: path.join(dir, 'audit.key') });
  const transitions = new JobTransitions(db, ledger);
  const queries = new JobQueries(db.sqlite);
  const put = db.sqlite.prepare('INSERT INTO settings (key, value, updated_at) VALUES (?, ?, 0)');
  /** What applies and hooks wrote and committed, by key prefix. */
  const writes = (prefix = 'diag.') =>
    db.sqlite.prepare(`SELECT key FROM settings WHERE key LIKE ? ORDER BY key`).pluck().all(`${prefix}%`) as string[];
  // Product halves are never reached: only diagnostic types are enqueued.
  const registry = new JobRegistry(
    {} as MainHalves<ProductJobTypes>,
    diagnosticMainHalves((k, v) => put.run(k, v)),
  );
  return { dir, db, ledger, transitions, queries, put, writes, registry };
}

export function openCompleterFixture() {
  const { db, ledger, transitions, queries, put, writes, registry } = openJobsLibrary('circa-completer-');
  const completer = new Completer(transitions, 30_000, silentLogger);
  /** Enqueues and claims diag.noop jobs with these keys (k0… by default), as a worker slot would hold them. */
  const held = (n: number, keys = Array.from({ length: n }, (_, i) => `k${i}`), maxRetries = () => 2): Attempt[] => {
    transitions.enqueue(
      keys.map((key) => ({ type: 'diag.noop', payload: { key }, subject: null, maxRetries: maxRetries() })),
      'test',
    );
    const rows = transitions.claim(OWNER, 30_000, { max: n, types: ['diag.noop'], depth: () => n });
    return rows.map((row) => {
      const p = prepareJob(row, { id: row.id, attempt: row.attempt, claimedBy: OWNER }, registry);
      if ('error' in p) throw new Error(p.error.message);
      return p.job;
    });
  };
  const ok = (job: Attempt, output: unknown = { pid: 1 }): Outcome => ({
    kind: 'result',
    job,
    msg: { t: 'result', jobId: job.lease.id, attempt: job.lease.attempt, ok: true, output },
    output: job.definition.output.safeParse(output),
  });
  /** The job's audit events, in order. */
  const audited = (id: number) =>
    db.sqlite.prepare('SELECT event FROM audit_events WHERE job_id = ? ORDER BY id').pluck().all(id) as string[];
  const close = () => db.close();
  return { db, put, transitions, ledger, queries, registry, completer, held, ok, writes, audited, close };
}
