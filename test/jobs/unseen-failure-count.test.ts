/**
 * The red badge's count of failures nobody has dismissed or retried is a counter kept by triggers
 * (unseen_failure_count), not a count of rows: at 150,000 failures counting them cost ~3 ms on
 * main's thread for every jobs.changed event. It must equal the real count after every path that
 * makes a job an unseen failure or stops it being one, whoever writes, and after an upgrade from a
 * library that had failures before the counter existed.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { appPaths } from '../../src/main/app-paths';
import { openDatabase } from '../../src/main/db/open';
import { libraryPaths } from '../../src/main/library/paths';
import type { Lease } from '../../src/main/jobs/store/rows';
import { seedFinishedJobs } from '../support/seed-library';
import { openTestCore, tempDir } from './helpers';

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

const OWNER = 'host:1:test/w0';
const UNSEEN = `SELECT count(*) FROM background_jobs WHERE status = 'failed' AND acknowledged_at IS NULL`;

/** The counter, the real count and what the badge is told, which must all agree. */
function counted(c: Core | Database.Database) {
  const sqlite = 'db' in c ? c.db.sqlite : c;
  const counter = sqlite.prepare('SELECT n FROM unseen_failure_count').pluck().get() as number | undefined;
  const truth = sqlite.prepare(UNSEEN).pluck().get() as number;
  return { counter, truth, ...('db' in c ? { badge: c.jobs.unseenFailed() } : {}) };
}
const expectUnseen = (c: Core, n: number) => expect(counted(c)).toEqual({ counter: n, truth: n, badge: n });

/** Enqueues diag.fail jobs and claims them (lease `leaseMs`), as a runner would. */
function running(c: Core, keys: string[], leaseMs = 60_000): Lease[] {
  for (const key of keys) c.jobs.enqueue({ type: 'diag.fail', payload: { key } });
  const rows = c.jobs.transitions.claim(OWNER, leaseMs, { max: keys.length, types: 'any', depth: () => keys.length });
  expect(rows).toHaveLength(keys.length);
  return rows.map((r) => ({ id: r.id, attempt: r.attempt, claimedBy: OWNER }));
}
const failed = (c: Core, l: Lease, kind: 'permanent' | 'retryable' = 'permanent') =>
  c.jobs.transitions.transaction(() => c.jobs.transitions.markFailure(l, { kind, message: `failed ${kind}` }));

describe('the count of unseen failures', () => {
  it('follows every transition in and out of "failed, not yet seen"', () => {
    core = openTestCore({ runJobs: false });
    const c = core;
    const t = c.jobs.transitions;
    expectUnseen(c, 0);

    // Fail: permanent at once; retryable while retries remain goes back to the queue (not a failure yet).
    const [a, b, d, e] = running(c, ['a', 'b', 'd', 'e']);
    expect(failed(c, a)).toBe('failed');
    expectUnseen(c, 1);
    expect(failed(c, b, 'retryable')).toBe('requeued');
    expectUnseen(c, 1);
    // Success and cancellation are not failures.
    t.transaction(() => t.markSuccess(d, 'ok'));
    c.jobs.cancel(e.id);
    t.transaction(() => t.markCancelled(e));
    expectUnseen(c, 1);

    // A lapsed lease on its last attempt fails the job (the rescuer's path).
    c.db.sqlite.prepare('UPDATE background_jobs SET retry_count = max_retries, run_after = 0 WHERE id = ?').run(b.id);
    const [lapsed] = c.jobs.transitions.claim(OWNER, -1, { max: 1, types: 'any', depth: () => 1 });
    expect(lapsed.id).toBe(b.id);
    expect(t.reclaimLapsed('rescuer').failed).toEqual([b.id]);
    expectUnseen(c, 2);

    // Dismissed by the archivist: seen.
    expect(c.jobs.acknowledge({ ids: [a.id] })).toBe(1);
    expectUnseen(c, 1);
    // Dismissing it again, or a job that is not a failure, changes nothing.
    expect(c.jobs.acknowledge({ ids: [a.id, d.id] })).toBe(0);
    expectUnseen(c, 1);

    // Retried: the new attempt answers the failure.
    const again = c.jobs.retry(b.id);
    expect(again.created).toBe(true);
    expectUnseen(c, 0);
    c.jobs.cancel(again.job.id); // out of the way of the claims below

    // Re-enqueuing the same work answers an earlier failure of it (supersede on enqueue).
    const [f] = running(c, ['f']);
    failed(c, f);
    expectUnseen(c, 1);
    const rerun = c.jobs.enqueue({ type: 'diag.fail', payload: { key: 'f' } }, 'user', { supersedeFailures: true });
    expectUnseen(c, 0);
    c.jobs.cancel(rerun.job.id);

    // Retry-all: the retryable ones are answered, the permanent ones stay until dismissed.
    const [g, h, i] = running(c, ['g', 'h', 'i']);
    failed(c, g);
    failed(c, h, 'retryable');
    c.db.sqlite.prepare('UPDATE background_jobs SET retry_count = max_retries WHERE id = ?').run(i.id);
    failed(c, i, 'retryable');
    expectUnseen(c, 2);
    expect(c.jobs.retryAllFailed()).toEqual({ requeued: 1, skippedPermanent: 1 });
    expectUnseen(c, 1);
    expect(c.jobs.acknowledge({ all: true })).toBe(1);
    expectUnseen(c, 0);
  });

  it('follows pruning, and writes from another connection that insert, update and delete rows', () => {
    const dir = tempDir();
    core = openTestCore({ libraryDir: dir, runJobs: false });
    const c = core;
    const leases = running(c, ['p1', 'p2', 'p3', 'p4']);
    for (const l of leases) failed(c, l);
    c.jobs.acknowledge({ ids: [leases[0].id] });
    expectUnseen(c, 3);

    // Pruning deletes finished jobs past retention, unseen failures among them.
    c.db.sqlite.prepare('UPDATE background_jobs SET finished_at = 1 WHERE id IN (?, ?)').run(leases[0].id, leases[1].id);
    expect(c.jobs.transitions.prune(60_000, 100)).toBe(2);
    expectUnseen(c, 2);

    // Another writer (a headless runner of another version, a repair script) on its own connection.
    const other = new Database(libraryPaths(dir).dbFile);
    other.pragma('busy_timeout = 5000');
    const now = Date.now();
    const insert = other.prepare(
      `INSERT INTO background_jobs (type, status, payload, max_retries, run_after, finished_at, acknowledged_at, created_at, updated_at)
       VALUES ('diag.fail', ?, '{}', 0, ?, ?, ?, ?, ?)`,
    );
    insert.run('failed', now, now, null, now, now); // an unseen failure
    insert.run('failed', now, now, now, now, now); // a failure already seen
    insert.run('success', now, now, null, now, now);
    expectUnseen(c, 3);
    other.prepare('UPDATE background_jobs SET acknowledged_at = NULL WHERE acknowledged_at IS NOT NULL').run(); // un-dismissed
    expectUnseen(c, 4);
    other.prepare(`UPDATE background_jobs SET status = 'cancelled' WHERE id = ?`).run(leases[2].id); // failed → cancelled
    expectUnseen(c, 3);
    other.prepare(`UPDATE background_jobs SET status = 'failed' WHERE id = ?`).run(leases[2].id); // and back
    expectUnseen(c, 4);
    other.prepare(`UPDATE background_jobs SET acknowledged_at = ?, status = 'success' WHERE id = ?`).run(now, leases[3].id);
    expectUnseen(c, 3);
    other.prepare(`DELETE FROM background_jobs WHERE status != 'failed' OR acknowledged_at IS NOT NULL`).run();
    expectUnseen(c, 3);
    other.prepare('DELETE FROM background_jobs').run();
    expectUnseen(c, 0);
    other.close();
  });

  it('is set from the failures already there when a library is upgraded to it', async () => {
    // The app's migrations up to the one before the counter: a library written by an older version.
    const folder = path.join(tempDir(), 'migrations');
    fs.cpSync(appPaths().migrations, folder, { recursive: true });
    const journalFile = path.join(folder, 'meta', '_journal.json');
    const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
    const at = journal.entries.findIndex((e) => e.tag.endsWith('_unseen_failure_count'));
    expect(at).toBeGreaterThan(0);
    journal.entries = journal.entries.slice(0, at);
    fs.writeFileSync(journalFile, JSON.stringify(journal));

    const dir = tempDir();
    const old = openDatabase({ file: libraryPaths(dir).dbFile, migrationsFolder: folder, backgroundCheckpoints: false });
    const now = Date.now();
    const insert = old.sqlite.prepare(
      `INSERT INTO background_jobs (type, status, payload, max_retries, run_after, finished_at, acknowledged_at, created_at, updated_at)
       VALUES (?, ?, '{}', 0, ?, ?, ?, ?, ?)`,
    );
    old.sqlite.transaction(() => {
      for (let i = 0; i < 30; i++) {
        const status = i % 3 === 0 ? 'success' : 'failed';
        insert.run(i % 2 ? 'ocr' : 'metadata', status, now, now, status === 'failed' && i % 5 === 0 ? now : null, now, now);
      }
    })();
    expect(old.sqlite.prepare(UNSEEN).pluck().get()).toBe(16);
    expect(() => old.sqlite.prepare('SELECT n FROM unseen_failure_count').get()).toThrow(/no such table/);
    await old.close();

    core = openTestCore({ libraryDir: dir, runJobs: false });
    expectUnseen(core, 16);
    // And it is kept from then on.
    const [l] = running(core, ['after-upgrade']);
    failed(core, l);
    expectUnseen(core, 17);
    expect(core.jobs.acknowledge({ all: true })).toBe(17);
    expectUnseen(core, 0);
  });

  it('is right after the benchmarks seed a job history with its triggers set aside', () => {
    core = openTestCore({ runJobs: false });
    seedFinishedJobs(core.db.sqlite, 3000);
    const { truth } = counted(core);
    expect(truth).toBeGreaterThan(30);
    expectUnseen(core, truth);
  });
});
