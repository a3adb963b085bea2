/**
 * Tampering the earlier round did not catch, through the database alone (the key stays secret):
 *  - a rollback: audit_head copied from a backup of this library (as validly signed as the
 *    current one) and the later events deleted — caught by the counter kept beside the key, at
 *    open (appends refused) and by verify-audit; and the finished jobs whose end is gone;
 *  - the events' signatures cleared after a rewrite: reported as such, at the first event that
 *    cannot be vouched for, not at the last event;
 *  - a forged "re-anchored with a new key" event: reported as forged, not shown as a genuine note.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { openTestCore, rawDb, tempDir, waitFor } from '../jobs/helpers';
import { circaWorkerCli, rechain, tamper } from '../support/audit-tamper';

/** Runs `n` jobs to success in the library (a real runner and worker processes). */
async function runJobs(dir: string, n: number, from: number): Promise<void> {
  const core = openTestCore({ libraryDir: dir });
  core.jobs.enqueueMany(Array.from({ length: n }, (_, i) => ({ type: 'diag.sleep', payload: { ms: 0, key: `k${from + i}` } })));
  await waitFor(() => core.jobs.counts().success === from + n || undefined, 60_000, `${n} jobs to succeed`);
  await core.close();
}

async function openAndVerify(dir: string) {
  const errors: string[] = [];
  const core: Core = openTestCore({
    libraryDir: dir,
    runJobs: false,
    log: { info() {}, warn() {}, error: (m) => errors.push(m) },
  });
  try {
    return { report: core.ledger.verify(), problem: core.ledger.problem, errors };
  } finally {
    await core.close();
  }
}

describe('a rolled-back ledger', () => {
  it('a library closed before its first event opens again untroubled (the counter then vouches for the empty ledger only)', async () => {
    const dir = tempDir();
    await openAndVerify(dir);
    const { problem, errors } = await openAndVerify(dir);
    expect(problem).toBeNull();
    expect(errors).toEqual([]);
    await runJobs(dir, 2, 0);
    expect((await openAndVerify(dir)).problem).toBeNull();
  });

  it('audit_head from a backup and the later events deleted: refused at open, BROKEN in verify-audit', async () => {
    const dir = tempDir();
    await runJobs(dir, 4, 0);
    // The backup: a copy of the library's database in its own backups/ folder.
    fs.mkdirSync(path.join(dir, 'backups'));
    const backup = path.join(dir, 'backups', 'circa-backup.db');
    await rawDb(dir).backup(backup);
    await runJobs(dir, 4, 4);

    const old = new Database(backup, { readonly: true });
    const head = old.prepare('SELECT * FROM audit_head WHERE id = 1').get() as Record<string, unknown> & { last_id: number };
    old.close();
    tamper(dir, (raw) => {
      raw.prepare('DELETE FROM audit_events WHERE id > ?').run(head.last_id);
      raw
        .prepare('UPDATE audit_head SET last_id = ?, count = ?, hash = ?, mac = ?, updated_at = ? WHERE id = 1')
        .run(head.last_id, head.count, head.hash, head.mac, head.updated_at);
    });

    const { report, problem } = await openAndVerify(dir);
    expect(problem).toMatch(/rolled back/);
    expect(report.ok).toBe(false);
    expect(report.brokenAt).toEqual({ id: head.last_id + 1, reason: expect.stringMatching(/rolled back.*audit\.counter/) });
    expect(report.problems.join('\n')).toMatch(/4 finished job\(s\) have no terminal event in the ledger \(job 5, 6, 7, 8\)/);
    const cli = await circaWorkerCli('verify-audit', dir);
    expect(cli.code).toBe(1);
    expect(cli.out).toContain(`BROKEN at event ${head.last_id + 1}`);
    expect(cli.out).toMatch(/rolled back/);
  }, 120_000);

  it('finished jobs whose terminal event is gone are reported even with no counter to compare', async () => {
    const dir = tempDir();
    await runJobs(dir, 3, 0);
    fs.rmSync(path.join(dir, 'audit.counter'), { force: true });
    // Job 2's "succeeded" event removed: the chain breaks there too, and the lost end is listed.
    tamper(dir, (raw) => raw.prepare("DELETE FROM audit_events WHERE job_id = 2 AND event = 'succeeded'").run());
    const { report } = await openAndVerify(dir);
    expect(report.ok).toBe(false);
    expect(report.problems).toContainEqual(
      expect.stringMatching(/1 finished job\(s\) have no terminal event in the ledger \(job 2\)/),
    );
  }, 120_000);

  it('a library that is only appended to keeps verifying, across restarts', async () => {
    const dir = tempDir();
    await runJobs(dir, 2, 0);
    await runJobs(dir, 2, 2);
    const { report, problem } = await openAndVerify(dir);
    expect(problem).toBeNull();
    expect(report).toMatchObject({ ok: true, problems: [] });
    expect((await circaWorkerCli('verify-audit', dir)).code).toBe(0);
  }, 120_000);
});

/** A library with `jobs` enqueue events in batches of `batch` (the last event of each is signed). */
async function libraryWithEvents(jobs: number, batch: number): Promise<string> {
  const dir = tempDir();
  const core = openTestCore({ libraryDir: dir, runJobs: false });
  for (let i = 0; i < jobs; i += batch)
    core.jobs.enqueueMany(
      Array.from({ length: Math.min(batch, jobs - i) }, (_, k) => ({ type: 'diag.sleep', payload: { ms: 0, key: `k${i + k}` } })),
    );
  await core.close();
  return dir;
}

describe('signatures and re-anchors', () => {
  it('signatures cleared after a rewrite are reported as cleared, at the first event that cannot be vouched for', async () => {
    const dir = await libraryWithEvents(300, 100); // signed at events 100, 200, 300
    tamper(dir, (raw) => {
      raw.prepare(`UPDATE audit_events SET data = '{"forged":true}' WHERE id = 150`).run();
      rechain(raw, 150);
      raw.prepare('UPDATE audit_events SET mac = NULL WHERE id > 100').run();
    });
    const { report } = await openAndVerify(dir);
    expect(report.ok).toBe(false);
    expect(report.brokenAt).toEqual({ id: 101, reason: expect.stringMatching(/signatures were cleared.*events 101–300/) });
    expect(report.checked).toBe(100);
  });

  it('a forged "re-anchored with a new key" event is reported as forged, not as a note', async () => {
    const dir = await libraryWithEvents(200, 100);
    tamper(dir, (raw) => {
      // Rewrite event 50, and slip in a re-anchor after it that would excuse the signatures before.
      raw.prepare(`UPDATE audit_events SET data = '{"forged":true}' WHERE id = 50`).run();
      raw
        .prepare(`UPDATE audit_events SET event = 'audit.reanchored', data = ? WHERE id = 120`)
        .run(JSON.stringify({ reason: 'key lost', newKey: true, restoredTriggers: [] }));
      rechain(raw, 50);
    });
    const { report } = await openAndVerify(dir);
    expect(report.ok).toBe(false);
    expect(report.notes.join('\n')).not.toMatch(/event 120: re-anchored/);
    expect(report.brokenAt).toEqual({ id: 120, reason: expect.stringMatching(/forged re-anchor event/) });
  });
});
