/** The audit ledger: every transition is chained; verify() and `circa-worker verify-audit` detect tampering. */
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { waitForStatus } from '../support/core';
import { openTestCore, rawDb, tempDir } from './helpers';
import { circaWorkerCli } from '../support/audit-tamper';

/** A library with some history: a success, a failure, a cancellation. */
async function libraryWithHistory() {
  const dir = tempDir();
  const core = openTestCore({ libraryDir: dir, concurrency: 1 });
  const a = core.jobs.enqueue({ type: 'diag.sleep', payload: { ms: 0, key: 'a' } });
  const b = core.jobs.enqueue({ type: 'diag.fail', payload: { message: 'no', mode: 'permanent' } });
  await waitForStatus(core, a.job.id, ['success']);
  await waitForStatus(core, b.job.id, ['failed']);
  const c = core.jobs.enqueue({ type: 'diag.sleep', payload: { ms: 0, key: 'c' } });
  core.jobs.cancel(c.job.id);
  const report = core.ledger.verify();
  await core.close();
  return { dir, report, ids: [a.job.id, b.job.id, c.job.id] };
}

describe('audit ledger', () => {
  it('verifies an untouched chain, and the CLI agrees (exit 0)', async () => {
    const { dir, report } = await libraryWithHistory();
    const raw = rawDb(dir);
    const total = raw.prepare('SELECT count(*) FROM audit_events').pluck().get() as number;
    expect(report).toEqual({ ok: true, checked: total, problems: [], notes: [] });
    expect(total).toBeGreaterThanOrEqual(8);
    // Every row links to the one before it.
    const rows = raw.prepare('SELECT prev_hash, hash FROM audit_events ORDER BY id').all() as {
      prev_hash: string;
      hash: string;
    }[];
    for (let i = 1; i < rows.length; i++) expect(rows[i].prev_hash).toBe(rows[i - 1].hash);
    // The ledger is append-only in the database itself.
    expect(() => raw.prepare(`UPDATE audit_events SET actor = 'me' WHERE id = 1`).run()).toThrow(/append-only/);
    expect(() => raw.prepare('DELETE FROM audit_events WHERE id = 1').run()).toThrow(/append-only/);
    raw.close();
    const cli = await circaWorkerCli('verify-audit', dir);
    expect(cli.code).toBe(0);
    expect(cli.out).toContain(`audit ledger OK: ${total} events verified`);
  });

  it('detects an edited row (after the guard trigger was dropped); the CLI exits 1', async () => {
    const { dir, ids } = await libraryWithHistory();
    const raw = rawDb(dir);
    const target = raw.prepare(`SELECT id FROM audit_events WHERE job_id = ? AND event = 'failed'`).pluck().get(ids[1]) as number;
    raw.exec('DROP TRIGGER audit_events_no_update');
    raw.prepare(`UPDATE audit_events SET data = '{"attempt":1,"retryable":true}' WHERE id = ?`).run(target);
    raw.close();
    const core = openTestCore({ libraryDir: dir, runJobs: false });
    const report = core.ledger.verify();
    await core.close();
    expect(report.ok).toBe(false);
    expect(report.brokenAt).toEqual({ id: target, reason: expect.stringContaining('edited') });
    expect(report.checked).toBe(target - 1);
    const cli = await circaWorkerCli('verify-audit', dir);
    expect(cli.code).toBe(1);
    expect(cli.out).toContain(`audit ledger BROKEN at event ${target}`);
  });

  it('detects a removed row', async () => {
    const { dir } = await libraryWithHistory();
    const raw = rawDb(dir);
    raw.exec('DROP TRIGGER audit_events_no_delete');
    raw.prepare('DELETE FROM audit_events WHERE id = 3').run();
    raw.close();
    const core = openTestCore({ libraryDir: dir, runJobs: false });
    const report = core.ledger.verify();
    await core.close();
    expect(report).toMatchObject({ ok: false, checked: 2, brokenAt: { id: 4, reason: expect.stringContaining('removed') } });
    expect((await circaWorkerCli('verify-audit', dir)).code).toBe(1);
  });

  it('detects an edit whose own hash was recomputed: the next row no longer links to it', async () => {
    const { dir } = await libraryWithHistory();
    const raw = rawDb(dir);
    const row = raw.prepare('SELECT * FROM audit_events WHERE id = 2').get() as {
      at: number;
      event: string;
      actor: string;
      job_id: number | null;
      photo_id: number | null;
      prev_hash: string;
    };
    const data = '{"attempt":7}';
    const forged = crypto
      .createHash('sha256')
      .update(`${row.prev_hash}\n${row.at}\n${row.event}\n${row.actor}\n${row.job_id ?? ''}\n${row.photo_id ?? ''}\n${data}`)
      .digest('hex');
    raw.exec('DROP TRIGGER audit_events_no_update');
    raw.prepare('UPDATE audit_events SET data = ?, hash = ? WHERE id = 2').run(data, forged);
    raw.close();
    const core = openTestCore({ libraryDir: dir, runJobs: false });
    const report = core.ledger.verify();
    await core.close();
    expect(report).toMatchObject({
      ok: false,
      checked: 2,
      brokenAt: { id: 3, reason: expect.stringContaining('previous-hash link') },
    });
  });
});
