/**
 * Several headless runners (real OS processes, each with 2 worker processes) race on one library.
 * Every execution is recorded outside the database, in one file per worker process; every job
 * must have been executed exactly once and committed exactly once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openTestCore, readLog, startRunner, tempDir, type LogLine } from './helpers';

const RUNNERS = 3;
const JOBS = 1500;

describe('exactly once under contention', () => {
  it(`${RUNNERS} runner processes × 2 workers over ${JOBS} jobs: each job runs once`, async () => {
    const dir = tempDir();
    const logs = path.join(dir, 'exec');
    fs.mkdirSync(logs);
    const filler = openTestCore({ libraryDir: dir, runJobs: false });
    const ids = filler.jobs
      .enqueueMany(
        Array.from({ length: JOBS }, () => ({ type: 'diag.sleep', payload: { ms: 1, log: path.join(logs, '{pid}.log') } })),
      )
      .map((o) => o.job.id);
    await filler.close();

    const runners = Array.from({ length: RUNNERS }, () =>
      startRunner(['--library', dir, '--exit-when-idle', '--concurrency', '2', '--quiet']),
    );
    const exits = await Promise.all(runners.map((r) => r.exited));
    for (const [i, e] of exits.entries()) expect(e, runners[i].output()).toEqual({ code: 0, signal: null });

    const lines: LogLine[] = fs.readdirSync(logs).flatMap((f) => readLog(path.join(logs, f)));
    const count = (kind: LogLine['kind']) => {
      const m = new Map<number, number>();
      for (const l of lines) if (l.kind === kind) m.set(l.id, (m.get(l.id) ?? 0) + 1);
      return m;
    };
    const started = count('start');
    const finished = count('end');
    expect(started.size).toBe(JOBS);
    expect(finished.size).toBe(JOBS);
    expect([...started.values()].every((n) => n === 1)).toBe(true);
    expect([...finished.values()].every((n) => n === 1)).toBe(true);
    expect(lines.every((l) => l.attempt === 1)).toBe(true);

    const core = openTestCore({ libraryDir: dir, runJobs: false });
    try {
      expect(core.jobs.counts()).toMatchObject({ success: JOBS, queued: 0, running: 0, failed: 0 });
      const audit = core.db.sqlite
        .prepare(`SELECT event, job_id AS jobId, actor FROM audit_events WHERE event IN ('claimed', 'succeeded')`)
        .all() as { event: string; jobId: number; actor: string }[];
      const perJob = new Map<number, string[]>();
      for (const a of audit) perJob.set(a.jobId, [...(perJob.get(a.jobId) ?? []), a.event]);
      expect(perJob.size).toBe(JOBS);
      for (const id of ids) expect(perJob.get(id)).toEqual(['claimed', 'succeeded']);
      // The race was real: more than one runner process claimed jobs.
      const runnersSeen = new Set(audit.filter((a) => a.event === 'claimed').map((a) => a.actor.split('/')[0]));
      expect(runnersSeen.size).toBeGreaterThanOrEqual(2);
      // Every worker pid in the logs belongs to one of the runners' workers; more than 2 took part.
      expect(new Set(lines.map((l) => l.pid)).size).toBeGreaterThanOrEqual(3);
      expect(core.ledger.verify()).toMatchObject({ ok: true, checked: JOBS * 3 });
    } finally {
      await core.close();
    }
  }, 180_000); // ~45 s on an idle 2-core machine; generous because shared CI machines are not idle
});
