/**
 * The ledger proves its own completeness: tampering through the database alone — even by someone
 * who drops the guard triggers and recomputes the hash chain — is reported by verify() and by
 * `circa-worker verify-audit` (exit 1), naming the first bad event; and Circa refuses to add to a
 * ledger whose signed head no longer matches it, so a truncation cannot be laundered by the next
 * append.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openTestCore, rawDb, tempDir } from './helpers';
import { chainHash, circaWorkerCli, rechain, tamper, type AuditRow } from '../support/audit-tamper';

/** A library whose ledger has `jobs` enqueue events, appended in batches of `batch`. */
async function libraryWithEvents(jobs: number, batch = 100): Promise<string> {
  const dir = tempDir();
  const core = openTestCore({ libraryDir: dir, runJobs: false });
  for (let i = 0; i < jobs; i += batch)
    core.jobs.enqueueMany(
      Array.from({ length: Math.min(batch, jobs - i) }, (_, k) => ({ type: 'diag.sleep', payload: { ms: 0, key: `k${i + k}` } })),
    );
  expect(core.ledger.verify()).toMatchObject({ ok: true });
  await core.close();
  return dir;
}

async function verifyWithCore(dir: string) {
  const errors: string[] = [];
  const core = openTestCore({ libraryDir: dir, runJobs: false, log: { info() {}, warn() {}, error: (m) => errors.push(m) } });
  try {
    return { report: core.ledger.verify(), errors, problem: core.ledger.problem };
  } finally {
    await core.close();
  }
}

describe('the audit ledger proves it is complete', () => {
  it('a deleted last event is reported as a truncation, naming the missing event; the CLI exits 1', async () => {
    const dir = await libraryWithEvents(30);
    tamper(dir, (raw) => raw.prepare('DELETE FROM audit_events WHERE id = (SELECT max(id) FROM audit_events)').run());
    const { report } = await verifyWithCore(dir);
    expect(report).toMatchObject({
      ok: false,
      checked: 29,
      brokenAt: { id: 30, reason: expect.stringMatching(/truncated|missing/) },
    });
    const out = await circaWorkerCli('verify-audit', dir);
    expect(out.code).toBe(1);
    expect(out.out).toContain('BROKEN at event 30');
  });

  it('the last 5,000 events deleted are reported, with how many are missing', async () => {
    const dir = await libraryWithEvents(6000, 500);
    tamper(dir, (raw) => raw.prepare('DELETE FROM audit_events WHERE id > 1000').run());
    const { report } = await verifyWithCore(dir);
    expect(report.ok).toBe(false);
    expect(report.brokenAt).toEqual({ id: 1001, reason: expect.stringContaining('5000') });
  }, 60_000);

  it('a rewritten event with every later hash recomputed is found, at the signature that no longer matches', async () => {
    const dir = await libraryWithEvents(300, 100); // signed at events 100, 200, 300
    tamper(dir, (raw) => {
      raw.prepare(`UPDATE audit_events SET data = '{"forged":true}' WHERE id = 150`).run();
      rechain(raw, 150);
    });
    const { report } = await verifyWithCore(dir);
    expect(report.ok).toBe(false);
    // The hash links all hold; the first signed event after the change (200) fails, and the
    // report bounds the change: after event 100, the last one that still checks out.
    expect(report.brokenAt).toEqual({ id: 200, reason: expect.stringMatching(/rewritten.*after event 100/) });
    expect((await circaWorkerCli('verify-audit', dir)).code).toBe(1);
  });

  it('a forged event appended with a correct hash is reported as added outside Circa', async () => {
    const dir = await libraryWithEvents(10);
    tamper(dir, (raw) => {
      const last = raw.prepare('SELECT id, hash FROM audit_events ORDER BY id DESC LIMIT 1').get() as {
        id: number;
        hash: string;
      };
      const row = { at: Date.now(), event: 'succeeded', actor: 'user', job_id: 1, photo_id: null, data: '{}' };
      raw
        .prepare(
          'INSERT INTO audit_events (id, at, event, actor, job_id, photo_id, data, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
        )
        .run(last.id + 1, row.at, row.event, row.actor, row.job_id, row.photo_id, row.data, last.hash, chainHash(last.hash, row));
    });
    const { report } = await verifyWithCore(dir);
    expect(report).toMatchObject({ ok: false, brokenAt: { id: 11, reason: expect.stringContaining('outside Circa') } });
  });

  it('INSERT OR REPLACE cannot overwrite an event while the triggers are in place', async () => {
    const dir = await libraryWithEvents(5);
    const raw = rawDb(dir);
    const row = raw.prepare('SELECT * FROM audit_events WHERE id = 3').get() as AuditRow & { prev_hash: string; hash: string };
    expect(() =>
      raw
        .prepare(
          'INSERT OR REPLACE INTO audit_events (id, at, event, actor, job_id, photo_id, data, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
        )
        .run(3, row.at, 'cancelled', row.actor, row.job_id, row.photo_id, row.data, row.prev_hash, row.hash),
    ).toThrow(/append-only/);
    expect(() => raw.prepare(`REPLACE INTO audit_events SELECT * FROM audit_events WHERE id = 2`).run()).toThrow(/append-only/);
    expect(raw.prepare('SELECT event FROM audit_events WHERE id = 3').pluck().get()).toBe(row.event);
    raw.close();
    expect((await verifyWithCore(dir)).report.ok).toBe(true);
  });

  it('a truncated ledger is not appended to (which would launder the truncation): loudly, once', async () => {
    const dir = await libraryWithEvents(10);
    tamper(dir, (raw) => raw.prepare('DELETE FROM audit_events WHERE id > 8').run());
    const errors: string[] = [];
    const core = openTestCore({ libraryDir: dir, runJobs: false, log: { info() {}, warn() {}, error: (m) => errors.push(m) } });
    try {
      expect(core.ledger.problem).toMatch(/truncated|missing/);
      expect(errors.filter((e) => /audit ledger/i.test(e))).toHaveLength(1);
      const r = await core.dispatch('jobs.enqueue', { type: 'diag.sleep', payload: { ms: 0, key: 'after' } });
      expect(r).toMatchObject({ ok: false, error: { code: 'unavailable', message: expect.stringMatching(/audit ledger/i) } });
      expect(core.db.sqlite.prepare('SELECT max(id) FROM audit_events').pluck().get()).toBe(8);
    } finally {
      await core.close();
    }
    expect((await circaWorkerCli('verify-audit', dir)).code).toBe(1);
  });

  it('missing triggers are noticed at open: appends are refused and verify says why', async () => {
    const dir = await libraryWithEvents(5);
    const raw = rawDb(dir);
    raw.exec('DROP TRIGGER audit_events_no_replace');
    raw.close();
    const { report, problem, errors } = await verifyWithCore(dir);
    expect(problem).toMatch(/audit_events_no_replace/);
    expect(errors.some((e) => /audit_events_no_replace/.test(e))).toBe(true);
    expect(report).toMatchObject({ ok: false, problems: [expect.stringContaining('audit_events_no_replace')] });
    expect((await circaWorkerCli('verify-audit', dir)).code).toBe(1);
  });

  it('a missing key is reported; repair-audit records the break in the ledger and work goes on', async () => {
    const dir = await libraryWithEvents(5);
    fs.rmSync(`${dir}/audit.key`);
    expect((await verifyWithCore(dir)).problem).toMatch(/key/);
    const repaired = await circaWorkerCli('repair-audit', dir);
    expect(repaired.code).toBe(0);
    const core = openTestCore({ libraryDir: dir, runJobs: false });
    try {
      expect(core.ledger.problem).toBeNull();
      const last = core.db.sqlite.prepare('SELECT event, data FROM audit_events ORDER BY id DESC LIMIT 1').get() as {
        event: string;
        data: string;
      };
      expect(last.event).toBe('audit.reanchored');
      expect(JSON.parse(last.data).reason).toMatch(/key/);
      expect((await core.dispatch('jobs.enqueue', { type: 'diag.sleep', payload: { ms: 0, key: 'x' } })).ok).toBe(true);
      expect(core.ledger.verify()).toMatchObject({
        ok: true,
        notes: expect.arrayContaining([expect.stringMatching(/re-anchored/)]),
      });
    } finally {
      await core.close();
    }
  });
});
