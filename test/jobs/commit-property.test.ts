/**
 * The commit path against a model: random batches of outcomes whose type hooks (`apply`,
 * `onFailed`) randomly throw — a job's own fault, or a database error. After each commit every
 * job is in the state the model says, each transition left exactly one audit entry, nothing a
 * rolled-back hook wrote remains, and the ledger verifies. A database error from any hook leaves
 * the whole batch unwritten (the runner retries it); committed again once it clears, it lands.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermanentJobError } from '../../src/shared/jobs/errors';
import type { Outcome } from '../../src/main/jobs/runner/completer';
import type { JobStatus } from '../../src/shared/jobs/states';
import { openCompleterFixture } from './completer-fixture';

type Apply = 'fine' | 'throws' | 'throws_permanent' | 'database_error';
type Planned = { kind: 'result'; apply: Apply } | { kind: 'fail'; error: 'retryable' | 'permanent' } | { kind: 'release' };
interface JobPlan {
  planned: Planned;
  maxRetries: 0 | 1;
  onFailed: 'none' | 'fine' | 'throws' | 'database_error';
}

const jobPlan: fc.Arbitrary<JobPlan> = fc.record({
  planned: fc.oneof(
    fc.record({
      kind: fc.constant('result' as const),
      apply: fc.constantFrom<Apply>('fine', 'fine', 'throws', 'throws_permanent', 'database_error'),
    }),
    fc.record({ kind: fc.constant('fail' as const), error: fc.constantFrom('retryable' as const, 'permanent' as const) }),
    fc.constant({ kind: 'release' as const }),
  ),
  maxRetries: fc.constantFrom(0 as const, 1 as const),
  onFailed: fc.constantFrom('none' as const, 'fine' as const, 'throws' as const, 'database_error' as const),
});

class DatabaseBusy extends Error {
  readonly code = 'SQLITE_BUSY';
}

/** What the model says becomes of one job, once any database error has cleared (a hook that threw one then works). */
interface Expected {
  status: JobStatus;
  retryCount: number;
  event: 'succeeded' | 'failed' | 'released';
  applyWrote: boolean;
  onFailedWrote: boolean;
  messageHas?: string;
}

function model(plan: JobPlan): Expected {
  const p = plan.planned;
  if (p.kind === 'release')
    return { status: 'queued', retryCount: 0, event: 'released', applyWrote: false, onFailedWrote: false };
  if (p.kind === 'result' && (p.apply === 'fine' || p.apply === 'database_error'))
    return { status: 'success', retryCount: 0, event: 'succeeded', applyWrote: true, onFailedWrote: false };
  const permanent = (p.kind === 'result' && p.apply === 'throws_permanent') || (p.kind === 'fail' && p.error === 'permanent');
  if (!permanent && plan.maxRetries > 0)
    return { status: 'queued', retryCount: 1, event: 'failed', applyWrote: false, onFailedWrote: false };
  return {
    status: 'failed',
    retryCount: 0,
    event: 'failed',
    applyWrote: false,
    onFailedWrote: plan.onFailed === 'fine' || plan.onFailed === 'database_error',
    messageHas: plan.onFailed === 'throws' ? "onFailed failed: the type's bookkeeping broke" : undefined,
  };
}

/** A database error from a hook that runs (a final failure's onFailed, or any apply) retries the whole batch. */
function hitsDatabaseError(plan: JobPlan): boolean {
  const p = plan.planned;
  if (p.kind === 'result' && p.apply === 'database_error') return true;
  const e = model(plan);
  return e.status === 'failed' && plan.onFailed === 'database_error';
}

let f: ReturnType<typeof openCompleterFixture>;
beforeAll(() => {
  f = openCompleterFixture();
});
afterAll(async () => {
  await f.close();
});

describe('group commit, as a model says', () => {
  it('random batches with random throwing hooks: states, one audit entry per transition, a verified ledger', () => {
    let run = 0;
    const plans = new Map<string, JobPlan>();
    /** Once a database error has been seen, the environment recovers: hooks stop throwing it. */
    let databaseDown = true;
    f.registry.replaceHalf('diag.noop', {
      load: (job) => job.payload,
      apply: (_out, job) => {
        const key = (job.payload as { key: string }).key;
        const p = plans.get(key)!.planned;
        f.put.run(`apply.${key}`, 'x');
        if (p.kind === 'result' && p.apply === 'throws') throw new Error('a constraint failed');
        if (p.kind === 'result' && p.apply === 'throws_permanent') throw new PermanentJobError('the photo is gone');
        if (p.kind === 'result' && p.apply === 'database_error' && databaseDown) throw new DatabaseBusy('database is locked');
        return 'ok';
      },
      onFailed: (job) => {
        const key = (job.payload as { key: string }).key;
        const plan = plans.get(key)!;
        if (plan.onFailed === 'none') return; // as a type with no bookkeeping of its own
        f.put.run(`onFailed.${key}`, 'x');
        if (plan.onFailed === 'throws') throw new Error("the type's bookkeeping broke");
        if (plan.onFailed === 'database_error' && databaseDown) throw new DatabaseBusy('database is locked');
      },
    });
    const lastAuditId = () => f.db.sqlite.prepare('SELECT coalesce(max(id), 0) FROM audit_events').pluck().get() as number;

    fc.assert(
      fc.property(fc.array(jobPlan, { minLength: 1, maxLength: 8 }), (batchPlans) => {
        run++;
        // Jobs earlier runs left queued (released, retried) must not be claimed with this batch.
        const leftover = f.db.sqlite.prepare(`SELECT id FROM background_jobs WHERE status = 'queued'`).pluck().all();
        for (const id of leftover as number[]) f.transitions.cancel(id, 'test');
        const keys = batchPlans.map((_, i) => `r${run}j${i}`);
        keys.forEach((k, i) => plans.set(k, batchPlans[i]));
        let i = 0;
        const jobs = f.held(keys.length, keys, () => batchPlans[i++].maxRetries);
        const byKey = new Map(jobs.map((j) => [(j.ctx.payload as { key: string }).key, j]));
        const batch: Outcome[] = keys.map((key) => {
          const job = byKey.get(key)!;
          const p = plans.get(key)!.planned;
          if (p.kind === 'release') return { kind: 'release', job };
          if (p.kind === 'fail') return { kind: 'fail', job, error: { kind: p.error, message: `handler said ${p.error}` } };
          return f.ok(job);
        });
        const before = lastAuditId();

        databaseDown = true;
        if (batchPlans.some(hitsDatabaseError)) {
          // The environment failed: nothing of the batch is written, so the runner can retry it whole.
          expect(() => f.completer.commit(batch, () => null)).toThrow(DatabaseBusy);
          expect(lastAuditId()).toBe(before);
          for (const j of jobs) expect(f.queries.get(j.lease.id)!.status).toBe('running');
          expect(f.writes(`apply.r${run}j`)).toEqual([]);
          expect(f.writes(`onFailed.r${run}j`)).toEqual([]);
          databaseDown = false;
        }
        const { settled } = f.completer.commit(batch, () => null);

        const expected = keys.map((k) => model(plans.get(k)!));
        expect(settled.succeeded).toBe(expected.filter((e) => e.status === 'success').length);
        expect(settled.failed).toBe(expected.filter((e) => e.status === 'failed').length);
        const applied = new Set(f.writes(`apply.r${run}j`));
        const onFailedWrote = new Set(f.writes(`onFailed.r${run}j`));
        keys.forEach((key, n) => {
          const e = expected[n];
          const job = byKey.get(key)!;
          const row = f.queries.get(job.lease.id)!;
          expect({ key, status: row.status, retry: row.retry_count }).toEqual({ key, status: e.status, retry: e.retryCount });
          if (e.messageHas) expect(row.error_message).toContain(e.messageHas);
          expect(applied.has(`apply.${key}`)).toBe(e.applyWrote);
          expect(onFailedWrote.has(`onFailed.${key}`)).toBe(e.onFailedWrote);
          const events = f.db.sqlite
            .prepare('SELECT event FROM audit_events WHERE job_id = ? AND id > ? ORDER BY id')
            .pluck()
            .all(job.lease.id, before);
          expect({ key, events }).toEqual({ key, events: [e.event] });
        });
        expect(lastAuditId() - before).toBe(keys.length);
        expect(f.ledger.verify().ok).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});
