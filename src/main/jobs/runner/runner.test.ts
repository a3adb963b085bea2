/**
 * The scheduling loop over in-process fake workers (no processes, no core): hand-off and
 * prefetch, handing work back to an idle worker, per-type concurrency, modes and stop.
 * The real-process behaviour (crashes, leases across processes) is in test/jobs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { fakeSpawner, type FakeSpawner } from '../../../../test/support/fake-worker';
import { openJobsLibrary } from '../../../../test/jobs/completer-fixture';
import type { LibraryDb } from '../../db/open';
import type { JobRegistry } from '../registry';
import type { JobQueries } from '../store/queries';
import type { JobTransitions } from '../store/transitions';
import { JobRunner } from './runner';
import { MAX_PREFETCH } from './pace';
import { PermanentJobError } from '../../../shared/jobs/errors';

interface Rig {
  db: LibraryDb;
  registry: JobRegistry;
  transitions: JobTransitions;
  queries: JobQueries;
  f: FakeSpawner;
  runner: JobRunner;
  enqueue(type: string, n: number, payload?: (i: number) => object): number[];
  events(id: number): string[];
}

let rigs: Rig[] = [];
afterEach(async () => {
  for (const r of rigs) {
    await r.runner.stop(200);
    await r.db.close();
  }
  rigs = [];
});

function rig(concurrency: number, f = fakeSpawner()): Rig {
  const { db, transitions, queries, registry } = openJobsLibrary('circa-runner-');
  const runner = new JobRunner({
    transitions,
    registry,
    spawn: f.spawn,
    concurrency,
    retentionMs: () => 30 * 86_400_000,
    renewEveryMs: 100,
    sweepEveryMs: 200,
    pollEveryMs: 50,
    cancelGraceMs: 100,
  });
  const r: Rig = {
    db,
    registry,
    transitions,
    queries,
    f,
    runner,
    enqueue: (type, n, payload = () => ({})) =>
      transitions
        .enqueue(
          Array.from({ length: n }, (_, i) => ({ type, payload: payload(i), subject: null, maxRetries: 2 })),
          'test',
        )
        .map((o) => o.job.id),
    events: (id) => queries.auditTrail(id).map((a) => a.event),
  };
  rigs.push(r);
  return r;
}

/** Waits for something that must happen; the deadline is generous (the machine may be busy), not a measure. */
async function until(cond: () => boolean, what: string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const allDone = (r: Rig, ids: number[]) => ids.every((id) => r.queries.get(id)!.status === 'success');

describe('JobRunner over fake workers', () => {
  it('hands work ahead: a one-at-a-time type has its next job queued behind the one running', async () => {
    const r = rig(1);
    r.f.behave('diag.noop_single', { kind: 'succeed', ms: 40 });
    r.runner.start();
    await until(() => r.runner.getStats().workersAlive === 1, 'the worker');
    const ids = r.enqueue('diag.noop_single', 6);
    r.runner.wake();
    await until(() => allDone(r, ids), 'all jobs');
    const w = r.f.workers[0];
    // Each "run" message carries one job (hand-off 1) ...
    const runs = r.f.sent.filter((s) => s.msg.t === 'run').map((s) => (s.msg as { jobs: unknown[] }).jobs.length);
    expect(Math.max(...runs)).toBe(1);
    // ... but the worker was handed job n+1 before it finished job n (prefetch 1).
    expect(w.received.map((j) => j.jobId)).toEqual(ids);
    expect(w.started.map((j) => j.jobId)).toEqual(ids);
    expect(r.runner.getStats()).toMatchObject({ claimed: 6, succeeded: 6, handedBack: 0 });
  });

  /** One worker drains n jobs of a type that takes `ms` each; the number of jobs in each `run` message. */
  async function handOffs(type: string, n: number, ms: number) {
    const r = rig(1);
    r.f.behave(type, { kind: 'succeed', ms });
    r.runner.start();
    await until(() => r.runner.getStats().workersAlive === 1, 'the worker');
    const ids = r.enqueue(type, n);
    r.runner.wake();
    await until(() => allDone(r, ids), 'all jobs');
    const runs = r.f.sent.filter((s) => s.msg.t === 'run').map((s) => (s.msg as { jobs: unknown[] }).jobs.length);
    return { r, ids, runs };
  }

  it("hands over several at once for a batch type: the type's hand-off until its jobs are measured", async () => {
    const { runs } = await handOffs('diag.noop_batch', 40, 30);
    expect(runs[0]).toBe(8); // the hand-off
    // 30 ms a job is longer than the pace's AHEAD_MS: never more than the policy allows ahead.
    expect(Math.max(...runs)).toBeLessThanOrEqual(8);
  });

  it('holds more of a type whose jobs are short, handed over together, in claim order', async () => {
    const { r, ids, runs } = await handOffs('diag.noop_single', 300, 0);
    // At first the policy's own (one per message, two behind); once measured short, up to
    // MAX_PREFETCH behind, and a top-up travels in one message. (How many messages in all depends
    // on how busy the machine is: a cycle claims only what fits in its time budget.)
    expect(runs.slice(0, 1)).toEqual([1]);
    expect(Math.max(...runs)).toBeGreaterThan(3);
    expect(Math.max(...runs)).toBeLessThanOrEqual(1 + MAX_PREFETCH);
    expect(r.f.workers[0].started.map((j) => j.jobId)).toEqual(ids);
    expect(r.runner.getStats()).toMatchObject({ claimed: 300, succeeded: 300, handedBack: 0 });
  });

  it('an idle worker takes back the jobs a busy one has not started (the tail of a queue of long jobs)', async () => {
    const r = rig(2);
    r.runner.start();
    await until(() => r.runner.getStats().workersAlive === 2, 'the workers');
    // Two jobs, one each (idle workers share what is queued); the first is long. Then a third,
    // held ahead by the busy worker; the other finishes long before it is free, finds the queue
    // empty and takes the held one back.
    const ms = new Map<number, number>();
    r.f.behave('diag.noop_single', { kind: 'succeed', ms: (job) => ms.get(job.jobId) ?? 20 });
    const ids = r.enqueue('diag.noop_single', 2);
    ms.set(ids[0], 500).set(ids[1], 150);
    r.runner.wake();
    await until(() => r.f.workers.every((w) => w.started.length === 1), 'one job on each worker');
    ids.push(...r.enqueue('diag.noop_single', 1));
    r.runner.wake();
    await until(() => allDone(r, ids), 'all jobs');
    const [busy, idle] = r.f.workers[0].started[0].jobId === ids[0] ? r.f.workers : [...r.f.workers].reverse();
    expect(busy.started.map((j) => j.jobId)).toEqual([ids[0]]);
    expect(busy.received.map((j) => j.jobId)).toEqual([ids[0], ids[2]]);
    expect(idle.started.map((j) => j.jobId)).toEqual([ids[1], ids[2]]);
    expect(r.events(ids[2])).toEqual(['enqueued', 'claimed', 'handed_back', 'claimed', 'succeeded']);
    expect(r.queries.get(ids[2])).toMatchObject({ attempt: 2, retry_count: 0 });
    expect(r.runner.getStats()).toMatchObject({ succeeded: 3, handedBack: 1 });
  });

  it('runs at most `concurrency` jobs of a type at once, other types beside them', async () => {
    const r = rig(3);
    const slept = { pid: 1, slept: 60 };
    r.f.behave('diag.exclusive', { kind: 'succeed', ms: 60, output: slept });
    r.f.behave('diag.sleep', { kind: 'succeed', ms: 60, output: slept });
    r.runner.start();
    await until(() => r.runner.getStats().workersAlive === 3, 'the workers');
    const exclusive = r.enqueue('diag.exclusive', 4, () => ({ ms: 0 }));
    const other = r.enqueue('diag.sleep', 2, () => ({ ms: 0 }));
    let most = 0;
    const watch = setInterval(() => {
      const running = exclusive.filter((id) => r.queries.get(id)!.status === 'running').length;
      most = Math.max(most, running);
    }, 2);
    r.runner.wake();
    try {
      await until(() => allDone(r, [...exclusive, ...other]), 'all jobs');
    } finally {
      clearInterval(watch);
    }
    expect(most).toBe(1);
    // The other type ran beside it: two workers were busy with diag.sleep while one ran diag.exclusive.
    const ranSleep = r.f.workers.filter((w) => w.started.some((j) => j.type === 'diag.sleep'));
    expect(ranSleep.length).toBeGreaterThanOrEqual(1);
  });

  it('stop: gives back jobs handed over but not started, uncharged, and ends in stopped', async () => {
    const r = rig(1);
    r.f.behave('diag.noop_batch', { kind: 'hang' });
    r.runner.start();
    await until(() => r.runner.getStats().workersAlive === 1, 'the worker');
    const ids = r.enqueue('diag.noop_batch', 8);
    r.runner.wake();
    await until(() => r.f.workers[0].received.length === 8, 'the hand-off');
    await r.runner.stop(50);
    for (const id of ids) {
      expect(r.queries.get(id)).toMatchObject({ status: 'queued', retry_count: 0 });
      expect(r.events(id)).toEqual(['enqueued', 'claimed', 'released']);
    }
    await r.runner.finished; // resolves on stop
    // A stopped runner cannot be started again, and wake() does nothing.
    r.runner.start();
    r.runner.wake();
    expect(r.runner.getStats().workersAlive).toBe(0);
  });

  it('a crash costs the running job one retry; the jobs queued behind it are given back uncharged', async () => {
    const r = rig(1);
    r.f.behave('diag.noop_batch', { kind: 'hang' });
    r.runner.start();
    await until(() => r.runner.getStats().workersAlive === 1, 'the worker');
    const ids = r.enqueue('diag.noop_batch', 3);
    r.runner.wake();
    await until(() => r.f.workers[0].started.length === 1 && r.f.workers[0].received.length === 3, 'the hand-off');
    r.f.behave('diag.noop_batch', { kind: 'succeed' });
    r.f.workers[0].exit({ kind: 'out_of_memory', signal: 'SIGABRT' });
    await until(() => allDone(r, ids), 'all jobs, on the replacement worker');
    expect(r.queries.get(ids[0])).toMatchObject({ retry_count: 1, attempt: 2 });
    expect(r.events(ids[0])).toEqual(['enqueued', 'claimed', 'failed', 'claimed', 'succeeded']);
    expect(r.queries.auditTrail(ids[0])[2].data).toContain('ran out of memory (heap limit 1024 MB)');
    for (const id of ids.slice(1)) {
      expect(r.queries.get(id)).toMatchObject({ retry_count: 0 });
      expect(r.events(id)).toEqual(['enqueued', 'claimed', 'released', 'claimed', 'succeeded']);
    }
  });
});

/**
 * An asynchronous load (a backup's snapshot): the job is prepared in main, off its thread, and
 * handed to the worker only once ready. diag.exclusive has the policy such types need (hand-off 1,
 * nothing queued behind).
 */
describe('JobRunner: a load that prepares the job asynchronously in main', () => {
  function asyncLoad(r: Rig, ms: number, result: (signal: AbortSignal) => unknown = () => ({ ms: 0, prepared: true })) {
    const signals: AbortSignal[] = [];
    r.registry.replaceHalf('diag.exclusive', {
      load: (_job, main) => {
        signals.push(main.signal);
        return new Promise((resolve, reject) => {
          const t = setTimeout(() => resolve(result(main.signal)), ms);
          main.signal.addEventListener('abort', () => {
            clearTimeout(t);
            reject(new Error('preparation stopped'));
          });
        });
      },
      apply: () => 'done',
    });
    return signals;
  }

  it('hands the job over once main has prepared it, with what the load resolved to', async () => {
    const r = rig(1);
    asyncLoad(r, 80);
    r.f.behave('diag.exclusive', { kind: 'succeed', output: { pid: 1, slept: 0 } });
    r.runner.start();
    await until(() => r.runner.getStats().workersAlive === 1, 'the worker');
    const [id] = r.enqueue('diag.exclusive', 1, () => ({ ms: 0 }));
    r.runner.wake();
    await until(() => r.queries.get(id)!.status === 'running', 'the claim');
    expect(r.f.workers[0].received).toEqual([]); // still being prepared
    await until(() => r.queries.get(id)!.status === 'success', 'the job');
    expect(r.f.workers[0].received.map((j) => j.input)).toEqual([{ ms: 0, prepared: true }]);
  });

  it('a cancel while it is prepared stops the preparation; the worker never gets it and is not killed', async () => {
    const r = rig(1);
    const signals = asyncLoad(r, 5_000);
    r.runner.start();
    await until(() => r.runner.getStats().workersAlive === 1, 'the worker');
    const [id] = r.enqueue('diag.exclusive', 1, () => ({ ms: 0 }));
    r.runner.wake();
    await until(() => r.queries.get(id)!.status === 'running', 'the claim');
    r.transitions.cancel(id, 'test');
    r.runner.cancelRequested(id);
    await until(() => r.queries.get(id)!.status === 'cancelled', 'the cancel');
    expect(signals[0].aborted).toBe(true);
    expect(r.f.workers[0].received).toEqual([]);
    expect(r.f.workers[0].killed).toBe(false);
  });

  it('a load that fails fails the job with its message', async () => {
    const r = rig(1);
    r.registry.replaceHalf('diag.exclusive', {
      load: async () => {
        throw new PermanentJobError('The backup folder /media/usb is not reachable');
      },
      apply: () => 'done',
    });
    r.runner.start();
    await until(() => r.runner.getStats().workersAlive === 1, 'the worker');
    const [id] = r.enqueue('diag.exclusive', 1, () => ({ ms: 0 }));
    r.runner.wake();
    await until(() => r.queries.get(id)!.status === 'failed', 'the failure');
    expect(r.queries.get(id)!.error_message).toBe('The backup folder /media/usb is not reachable');
  });

  it('stop stops the preparation and gives the job back uncharged', async () => {
    const r = rig(1);
    const signals = asyncLoad(r, 5_000);
    r.runner.start();
    await until(() => r.runner.getStats().workersAlive === 1, 'the worker');
    const [id] = r.enqueue('diag.exclusive', 1, () => ({ ms: 0 }));
    r.runner.wake();
    await until(() => r.queries.get(id)!.status === 'running', 'the claim');
    await r.runner.stop(50);
    expect(signals[0].aborted).toBe(true);
    expect(r.queries.get(id)).toMatchObject({ status: 'queued', retry_count: 0 });
    expect(r.events(id)).toEqual(['enqueued', 'claimed', 'released']);
  });
});
