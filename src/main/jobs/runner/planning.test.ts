import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AuditLedger } from '../../audit/ledger';
import { appPaths } from '../../app-paths';
import { openDatabase, type LibraryDb } from '../../db/open';
import { JobRegistry, diagnosticMainHalves, type MainHalf, type MainHalves } from '../registry';
import type { JobRow } from '../store/rows';
import { ManualClock } from '../../../../test/support/manual-clock';
import { Attempt } from './attempt';
import { JobTransitions } from '../store/transitions';
import type { ProductJobTypes } from '../../../shared/jobs/types';
import { diagnosticJobTypes } from '../../../shared/jobs/types';
import type { AnyJobType } from '../../../shared/jobs/define';
import type { Outcome } from './completer';
import { claimFor, planClaims as plan, stealable } from './planning';
import type { WorkerSlot } from './worker-pool';

const slot = (index: number, ready = true): WorkerSlot => ({ index, owner: `r/w${index}`, ready, alive: true });
/** An attempt handed to worker 0, or one that is leaving it (asked back, or asked to stop). */
const job = (type: keyof typeof diagnosticJobTypes, id: number, leaving?: 'revoking' | 'cancel'): Attempt => {
  const a = new Attempt(
    { id, attempt: 1, claimedBy: 'r/w0' },
    { id, type } as JobRow,
    diagnosticJobTypes[type] as AnyJobType,
    undefined as unknown as MainHalf<AnyJobType>,
    { id, attempt: 1, payload: {}, subject: null },
  );
  a.handed();
  if (leaving === 'revoking') a.revoke();
  if (leaving === 'cancel') a.abort('cancel', new ManualClock(), 1000, () => {});
  return a;
};

/** Planning with each type's policy prefetch (nothing measured yet: see JobPace). */
const planClaims = (
  slots: WorkerSlot[],
  queueOf: (slot: WorkerSlot) => Attempt[],
  continuing: ReadonlySet<number>,
  pending: Outcome[],
) => plan(slots, queueOf, continuing, pending, (d) => d.policy.prefetch);

describe('planClaims', () => {
  it('idle ready workers want anything; workers not ready or continuing a checkpointed job want nothing', () => {
    const slots = [slot(0), slot(1, false), slot(2)];
    const wants = planClaims(slots, () => [], new Set([2]), []);
    expect(wants).toEqual([{ slot: slots[0], idle: true, max: Infinity }]);
  });

  it('tops a queue up to its full depth once half of its prefetch is used', () => {
    const s = slot(0);
    const single = (n: number) => Array.from({ length: n }, (_, i) => job('diag.noop_single', i + 1));
    // prefetch 2 (ocr's policy): topped up to three deep once one or none is waiting.
    expect(planClaims([s], () => single(1), new Set(), [])).toEqual([{ slot: s, idle: false, type: 'diag.noop_single', max: 2 }]);
    expect(planClaims([s], () => single(2), new Set(), [])).toEqual([{ slot: s, idle: false, type: 'diag.noop_single', max: 1 }]);
    expect(planClaims([s], () => single(3), new Set(), [])).toEqual([]);
    // prefetch 8 (metadata's): 9 deep at most; topped up once 5 or fewer remain.
    const batch = (n: number) => Array.from({ length: n }, (_, i) => job('diag.noop_batch', i + 1));
    expect(planClaims([s], () => batch(6), new Set(), [])).toEqual([]);
    expect(planClaims([s], () => batch(5), new Set(), [])).toEqual([{ slot: s, idle: false, type: 'diag.noop_batch', max: 4 }]);
    expect(planClaims([s], () => batch(1), new Set(), [])).toEqual([{ slot: s, idle: false, type: 'diag.noop_batch', max: 8 }]);
    // prefetch 0: never ahead.
    expect(planClaims([s], () => [job('diag.sleep', 1)], new Set(), [])).toEqual([]);
  });

  it('tops up to the depth the pace allows for short jobs', () => {
    const s = slot(0);
    const single = (n: number) => Array.from({ length: n }, (_, i) => job('diag.noop_single', i + 1));
    const paced = (n: number) =>
      plan(
        [s],
        () => single(n),
        new Set(),
        [],
        () => 20,
      );
    // 20 behind the running job: topped up once 10 or fewer are waiting.
    expect(paced(12)).toEqual([]);
    expect(paced(11)).toEqual([{ slot: s, idle: false, type: 'diag.noop_single', max: 10 }]);
    expect(paced(1)).toEqual([{ slot: s, idle: false, type: 'diag.noop_single', max: 20 }]);
  });

  it('does not top up a queue with a job being aborted or handed back, and puts idle workers first', () => {
    const [a, b] = [slot(0), slot(1)];
    const queues = new Map([
      [0, [job('diag.noop_single', 1)]],
      [1, [] as Attempt[]],
    ]);
    const wants = planClaims([a, b], (s) => queues.get(s.index)!, new Set(), []);
    expect(wants.map((w) => [w.slot.index, w.idle])).toEqual([
      [1, true],
      [0, false],
    ]);
    queues.set(0, [job('diag.noop_single', 1, 'cancel')]);
    expect(planClaims([a], (s) => queues.get(s.index)!, new Set(), [])).toEqual([]);
  });

  it("keeps a worker whose checkpointed job's step is being committed for that job's next step", () => {
    const s = slot(0);
    const step = {
      kind: 'result',
      job: { ...job('diag.noop', 1), definition: { policy: { checkpointed: true } } },
    } as unknown as Outcome;
    expect(planClaims([s], () => [], new Set(), [step])).toEqual([]);
  });
});

describe('planClaims: outcomes not yet committed', () => {
  const result = (type: keyof typeof diagnosticJobTypes, id: number, owner: string) =>
    ({ kind: 'result', job: { ...job(type, id), lease: { id, attempt: 1, claimedBy: owner } } }) as unknown as Outcome;

  it("count as held by their worker, except those this cycle's transaction commits", () => {
    const s = slot(0);
    // Nothing in the queue, 3 outcomes waiting (prefetch 2, so 3 deep): the worker holds a full depth.
    const three = [1, 2, 3].map((id) => result('diag.noop_single', id, s.owner));
    expect(planClaims([s], () => [], new Set(), three)).toEqual([]);
    // Two of them commit in this cycle: one still counts, so the top-up is for one fewer.
    const committing = (n: number) =>
      plan(
        [s],
        () => [],
        new Set(),
        three,
        (d) => d.policy.prefetch,
        n,
      );
    expect(committing(2)).toEqual([{ slot: s, idle: false, type: 'diag.noop_single', max: 2 }]);
    // All of them commit now: the worker is idle.
    expect(committing(3)).toEqual([{ slot: s, idle: true, max: Infinity }]);
  });

  it('do not count against another worker, and a release is not an outcome the worker holds', () => {
    const [a, b] = [slot(0), slot(1)];
    const pending = [
      result('diag.noop_single', 1, a.owner),
      result('diag.noop_single', 2, a.owner),
      { kind: 'release', job: job('diag.noop_single', 3) } as unknown as Outcome,
    ];
    const queues = [[job('diag.noop_single', 4)], []];
    expect(planClaims([a, b], (s) => queues[s.index], new Set(), pending)).toEqual([{ slot: b, idle: true, max: Infinity }]);
  });
});

describe('stealable', () => {
  it('is the worker holding the most jobs it has not started', () => {
    const slots = [slot(0), slot(1), slot(2)];
    const queues = [
      [job('diag.noop_batch', 1), job('diag.noop_batch', 2)],
      [job('diag.noop_batch', 3), job('diag.noop_batch', 4), job('diag.noop_batch', 5, 'revoking'), job('diag.noop_batch', 6)],
      [],
    ];
    expect(stealable(slots, (s) => queues[s.index])).toBe(slots[1]);
    expect(stealable([slots[2]], (s) => queues[s.index])).toBeUndefined();
  });
});

describe('claimFor', () => {
  let db: LibraryDb | undefined;
  afterEach(async () => {
    await db?.close();
    db = undefined;
  });

  function claiming(queued: number) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-claimfor-'));
    db = openDatabase({
      file: path.join(dir, 'circa.db'),
      migrationsFolder: appPaths().migrations,
      backgroundCheckpoints: false,
    });
    const transitions = new JobTransitions(db, new AuditLedger(db.sqlite, { keyFile: path.join(dir, 'audit.key') }));
    const type = 'diag.noop_batch'; // prefetch 8
    transitions.enqueue(
      Array.from({ length: queued }, () => ({ type, payload: {}, subject: null, maxRetries: 1 })),
      'test',
    );
    const registry = new JobRegistry(
      {} as MainHalves<ProductJobTypes>,
      diagnosticMainHalves(() => {}),
    );
    const slots = [slot(0), slot(1)];
    return (room: number) =>
      transitions.transaction(() =>
        claimFor(
          slots.map((s) => ({ slot: s, idle: true, max: Infinity })),
          {
            transitions,
            registry,
            leaseMs: 30_000,
            queues: [[], []],
            budget: Infinity,
            room,
            prefetchOf: (d) => d.policy.prefetch,
          },
        ),
      );
  }

  it('claims no more than fit in the transaction, and says when a want was left for the next', () => {
    const claim = claiming(40);
    const some = claim(5);
    expect(some.claims.map((c) => c.rows.length)).toEqual([5]);
    expect(some.cut).toBe(true);
    const none = claim(0);
    expect(none).toEqual({ claims: [], cut: true });
    // Room for both: each idle worker gets a full depth (1 + prefetch 8).
    const both = claim(100);
    expect(both.claims.map((c) => c.rows.length)).toEqual([9, 9]);
    expect(both.cut).toBe(false);
  });

  it('is not cut when the queue ran dry', () => {
    const claim = claiming(3);
    const out = claim(100);
    expect(out.claims.map((c) => c.rows.length)).toEqual([2, 1]);
    expect(out.cut).toBe(false);
    // The first idle worker finds nothing; the second is not asked.
    const dry = claim(100);
    expect(dry.claims.map((c) => c.rows.length)).toEqual([0]);
    expect(dry.cut).toBe(false);
  });
});
