/**
 * Queue benchmark (`npm run bench -- queue [--jobs N] [--rounds N] [--bulk N] [--latency N] [--writes N]`).
 * Everything runs in one process tree on the same disk (temporary folders under os.tmpdir()).
 *
 *  1. Throughput against plainjob, in paired rounds (order alternating), for the hand-off
 *     policies real job types use. Each drains N pre-filled no-op jobs through the real path
 *     (claim → worker process → apply/finalize + audit) with 2 worker processes, timed from the
 *     moment both workers are ready until the last outcome is committed:
 *       - one at a time, with a subject: the policy of `ocr` and `ai_analysis` (hand-off 1,
 *         prefetch 2), and each job has a subject, so it takes the idempotency-key path;
 *       - the `metadata` policy (hand-off 8, prefetch 8), with subjects;
 *       - the best case: 64 handed over at once, no subject (what no real type does).
 *     plainjob 0.0.14 drains the same N no-op jobs with 2 worker OS processes (its documented
 *     multi-process mode) in the same round.
 *     The ceiling (bench/_queue-ceiling.ts): main's statements for the same drain alone, with no
 *     worker, IPC or runtime, in the same round: how far any policy could go.
 *     No-op jobs are measured short, so after the first few the runtime holds up to 64 ahead per
 *     worker whatever the policy (src/main/jobs/runner/pace.ts); the policies then differ only in
 *     their first hand-offs. A real type keeps its policy's depth while its jobs take longer than
 *     20 ms / prefetch (OCR's take seconds, metadata's ~25 ms): its throughput is its handler's.
 *  2. Start latency on an idle queue: single enqueues a few ms apart, enqueue call → handler start.
 *  3. Bulk enqueue: one enqueueMany of `metadata` jobs, each with its photo as subject (what an
 *     import does), and of subject-less jobs for comparison.
 *  4. User writes while the pool drains `metadata`-policy jobs: a settings UPSERT in its own
 *     BEGIN IMMEDIATE transaction on a fixed schedule (every 5 ms, each write measured from when
 *     it was due, so one stall counts for every write it delays), at least --writes samples; once
 *     issued in main on main's connection (how the app's user writes happen) and once from another
 *     process on its own connection through Circa's write transactions (a headless runner and the
 *     app sharing a library).
 *
 * The last line is `RESULT {…}` (machine-readable).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { better, defineQueue } from 'plainjob';
import { openCore, type Core } from '../src/main/core/core';
import type { SpawnWorker } from '../src/main/jobs/worker-process';
import { arg, median, pct, round, sleep, table, waitUntil } from './_util';
import { child, fill, noSpawn, pickWorker, report } from './_queue-support';
import { ceilingDrain } from './_queue-ceiling';

const wall = () => performance.timeOrigin + performance.now();

interface Policy {
  name: string;
  label: string;
  type: string;
  subjects: boolean;
  /** Target ratio against plainjob (issue targets); the best case has none of its own. */
  target?: number;
}

const POLICIES: Policy[] = [
  {
    name: 'single',
    label: 'one at a time, with subjects (ocr, ai_analysis)',
    type: 'diag.noop_single',
    subjects: true,
    target: 1.0,
  },
  {
    name: 'metadata',
    label: 'metadata policy (8 handed over), with subjects',
    type: 'diag.noop_batch',
    subjects: true,
    target: 1.5,
  },
  { name: 'best', label: 'best case: 64 handed over, no subjects', type: 'diag.noop', subjects: false },
];

/** Opens a paused runner over a pre-filled library and waits for its workers to be ready. */
async function openPaused(dir: string, spawn: SpawnWorker): Promise<Core> {
  const core = openCore({
    libraryDir: dir,
    mode: 'headless',
    spawn,
    diagnostics: true,
    concurrency: 2,
    runner: { paused: true, exitWhenIdle: true },
    // A fresh core per measurement: the note readers' one warm-up per session (~200 ms of main's
    // CPU, at the first moment no request came in) would land inside the drain it measures.
    warmUpReaders: false,
  });
  await waitUntil(() => core.runner!.getStats().workersAlive === 2, 30_000, 'worker processes');
  return core;
}

async function drain(core: Core, n: number): Promise<number> {
  const t0 = performance.now();
  core.runner!.setPaused(false);
  await core.runner!.finished;
  const ms = performance.now() - t0;
  const counts = core.jobs.counts();
  if (counts.success !== n) throw new Error(`expected ${n} successes, got ${JSON.stringify(counts)}`);
  return ms;
}

async function circaDrain(root: string, n: number, policy: Policy, spawn: SpawnWorker) {
  const dir = fs.mkdtempSync(path.join(root, `circa-${policy.name}-`));
  await fill(dir, n, policy.type, policy.subjects);
  const core = await openPaused(dir, spawn);
  const lag = monitorEventLoopDelay({ resolution: 1 });
  lag.enable();
  const ms = await drain(core, n);
  lag.disable();
  const audit = core.ledger.verify();
  if (!audit.ok) throw new Error('audit ledger does not verify after the drain');
  await core.close();
  fs.rmSync(dir, { recursive: true, force: true });
  return { jobsPerSec: (n / ms) * 1000, loopP99: lag.percentile(99) / 1e6 };
}

async function plainjobDrain(root: string, n: number) {
  const dir = fs.mkdtempSync(path.join(root, 'plainjob-'));
  const file = path.join(dir, 'plainjob.db');
  const conn = new Database(file);
  const queue = defineQueue({ connection: better(conn), logger: { error() {}, warn() {}, info() {}, debug() {} } });
  for (let i = 0; i < n; i += 50_000)
    queue.addMany(
      'bench',
      Array.from({ length: Math.min(50_000, n - i) }, () => ({})),
    );
  const workers = await Promise.all([child('plainjob', file), child('plainjob', file)]);
  const done = conn.prepare('SELECT count(*) FROM plainjob_jobs WHERE status = 2').pluck();
  const t0 = wall();
  for (const w of workers) w.send({ t: 'go' });
  while ((done.get() as number) < n) await sleep(20);
  const reports = await Promise.all(workers.map((w) => report<{ count: number; last: number }>(w)));
  queue.close();
  fs.rmSync(dir, { recursive: true, force: true });
  const total = reports.reduce((s, r) => s + r.count, 0);
  if (total !== n) throw new Error(`plainjob processed ${total} of ${n}`);
  return { jobsPerSec: (n / (Math.max(...reports.map((r) => r.last)) - t0)) * 1000 };
}

async function startLatency(root: string, n: number, spawn: SpawnWorker) {
  const dir = path.join(root, 'latency');
  const core = openCore({ libraryDir: dir, mode: 'headless', spawn, diagnostics: true, concurrency: 2, warmUpReaders: false });
  await waitUntil(() => core.runner!.getStats().workersAlive === 2, 30_000, 'worker processes');
  // Warm up (JIT, statement caches) with a few jobs that are not counted.
  for (let i = 0; i < 20; i++) {
    core.jobs.enqueue({ type: 'diag.noop', payload: { key: `warm-${i}` } }, 'bench');
    await sleep(3);
  }
  const t0 = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const key = `lat-${i}`;
    t0.set(key, wall());
    core.jobs.enqueue({ type: 'diag.noop', payload: { key } }, 'bench');
    await sleep(3 + (i % 3));
  }
  await waitUntil(() => core.jobs.counts().success === n + 20, 30_000, 'latency jobs');
  const rows = core.db.sqlite.prepare("SELECT key, value FROM settings WHERE key LIKE 'diag.diag.noop.lat-%'").all() as {
    key: string;
    value: string;
  }[];
  const lat = rows.map((r) => {
    const started = (JSON.parse(r.value) as { output: { startedAt: number } }).output.startedAt;
    return started - t0.get(r.key.slice('diag.diag.noop.'.length))!;
  });
  await core.close();
  if (lat.length !== n || lat.some((x) => !Number.isFinite(x))) throw new Error('missing handler start timestamps');
  return { p50: pct(lat, 50), p99: pct(lat, 99), max: Math.max(...lat) };
}

/** One enqueueMany of n jobs: `metadata` with photo subjects (the import's path), or subject-less. */
async function bulkEnqueue(root: string, n: number, withSubjects: boolean) {
  const dir = fs.mkdtempSync(path.join(root, 'bulk-'));
  const core = openCore({ libraryDir: dir, mode: 'headless', spawn: noSpawn, runJobs: false, diagnostics: true });
  const items = (from: number, count: number) =>
    Array.from({ length: count }, (_, i) =>
      withSubjects ? { type: 'metadata', payload: { photoId: from + i + 1 } } : { type: 'diag.noop', payload: {} },
    );
  // Warm up the statements and the JIT (other subjects than the measured ones).
  for (let i = 0; i < 5; i++) core.jobs.enqueueMany(items(10_000_000 + i * 2000, 2000), 'bench');
  const batch = items(0, n);
  const t0 = performance.now();
  const out = core.jobs.enqueueMany(batch, 'bench');
  const ms = performance.now() - t0;
  if (out.length !== n || out.some((o) => !o.created) || core.jobs.counts().queued !== n + 10_000)
    throw new Error('bulk enqueue lost jobs');
  await core.close();
  fs.rmSync(dir, { recursive: true, force: true });
  return (n / ms) * 1000;
}

/**
 * User writes while the pool drains `metadata`-policy jobs, on a fixed 5 ms schedule. In main, a
 * write waits for main's event loop (a user's accept or note edit is a request main handles); from
 * another process it waits for the write lock, polled by its write transactions (write-transaction.ts).
 */
export async function userWrites(root: string, n: number, spawn: SpawnWorker, from: 'main' | 'process') {
  const dir = fs.mkdtempSync(path.join(root, `writes-${from}-`));
  await fill(dir, n, 'diag.noop_batch', true);
  const core = await openPaused(dir, spawn);
  const every = 5;
  let latencies: number[] = [];
  let stop = () => {};
  if (from === 'main') {
    // The app's own path: main's connection, through the same write transactions the runner uses.
    const upsert = core.db.sqlite.prepare(
      'INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
    );
    const write = (i: number) => core.db.immediate(() => upsert.run('bench.mainWrite', JSON.stringify({ i }), Date.now()));
    const t0 = performance.now() + every;
    let k = 0;
    let writing = true;
    // Due times are fixed (t0 + k·5 ms) whatever happened before: a stall delays every write due during it.
    const tick = () => {
      if (!writing) return;
      const now = performance.now();
      while (t0 + k * every <= now) {
        write(k);
        latencies.push(performance.now() - (t0 + k * every));
        k++;
      }
      setTimeout(tick, Math.max(0, t0 + k * every - performance.now()));
    };
    setTimeout(tick, every);
    stop = () => {
      writing = false;
    };
  }
  const writer = from === 'process' ? await child('writer', core.paths.dbFile, String(every)) : null;
  writer?.send({ t: 'go' });
  const wal = `${core.paths.dbFile}-wal`;
  let walPeak = 0;
  const sampler = setInterval(() => {
    try {
      walPeak = Math.max(walPeak, fs.statSync(wal).size);
    } catch {
      /* no WAL file at this instant */
    }
  }, 20);
  const ms = await drain(core, n);
  clearInterval(sampler);
  stop();
  if (writer) latencies = (await report<{ latencies: number[] }>(writer)).latencies;
  await core.close();
  fs.rmSync(dir, { recursive: true, force: true });
  return {
    p50: pct(latencies, 50),
    p99: pct(latencies, 99),
    max: Math.max(...latencies),
    writes: latencies.length,
    drainMs: ms,
    walPeakMB: walPeak / 1e6,
  };
}

export async function run(args: string[]): Promise<void> {
  const n = arg(args, 'jobs', 20_000);
  const rounds = arg(args, 'rounds', 3);
  const bulkN = arg(args, 'bulk', 50_000);
  const latN = arg(args, 'latency', 500);
  const minWrites = arg(args, 'writes', 1000);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-bench-queue-'));
  const worker = pickWorker();
  console.log(
    `queue benchmark: ${n} jobs × ${rounds} paired rounds, ${os.availableParallelism()} cores, node ${process.version}`,
  );
  console.log(`worker processes: ${worker.label}`);
  try {
    const ratios = new Map<string, number[]>(POLICIES.map((p) => [p.name, []]));
    const rates = new Map<string, number[]>(POLICIES.map((p) => [p.name, []]));
    const plainRates: number[] = [];
    const ceilingRatios: number[] = [];
    let slowest = 0;
    for (let r = 0; r < rounds; r++) {
      // Alternate which side goes first: a shared machine drifts within a round.
      const plainFirst = r % 2 === 0;
      let plain = plainFirst ? (await plainjobDrain(root, n)).jobsPerSec : 0;
      const circa: Record<string, number> = {};
      for (const p of POLICIES) {
        const d = await circaDrain(root, n, p, worker.spawn);
        circa[p.name] = d.jobsPerSec;
        slowest = Math.max(slowest, d.loopP99);
      }
      const ceiling = await ceilingDrain(root, n, 'diag.noop_batch');
      if (!plainFirst) plain = (await plainjobDrain(root, n)).jobsPerSec;
      plainRates.push(plain);
      ceilingRatios.push(ceiling / plain);
      const line = POLICIES.map((p) => {
        ratios.get(p.name)!.push(circa[p.name] / plain);
        rates.get(p.name)!.push(circa[p.name]);
        return `${p.name} ${Math.round(circa[p.name])}/s (${round(circa[p.name] / plain)}×)`;
      }).join(', ');
      const ceilingNote = `; ceiling ${Math.round(ceiling)}/s (${round(ceiling / plain)}×)`;
      console.log(
        `round ${r + 1}/${rounds} (${plainFirst ? 'plainjob first' : 'Circa first'}): plainjob ${Math.round(plain)}/s; ${line}${ceilingNote}`,
      );
    }
    const latency = await startLatency(root, latN, worker.spawn);
    const bulkSubjects = await bulkEnqueue(root, bulkN, true);
    const bulkPlain = await bulkEnqueue(root, bulkN, false);
    // Enough jobs for the drain to last at least minWrites × 5 ms (from the metadata policy's rate).
    const writeJobs = Math.max(n, Math.ceil(((median(rates.get('metadata')!) * minWrites * 5) / 1000) * 1.2));
    const mainWrites = await userWrites(root, writeJobs, worker.spawn, 'main');
    const otherWrites = await userWrites(root, writeJobs, worker.spawn, 'process');

    const range = (xs: number[]) => `${round(Math.min(...xs))}–${round(Math.max(...xs))}`;
    const rows: [string, string, string][] = [
      [
        'plainjob drain (2 processes)',
        `${Math.round(median(plainRates))} jobs/s`,
        `median of ${rounds}; the comparison for every policy`,
      ],
      ...POLICIES.map((p): [string, string, string] => [
        `Circa: ${p.label}`,
        `${round(median(ratios.get(p.name)!))}×`,
        `${Math.round(median(rates.get(p.name)!))} jobs/s; ratio range ${range(ratios.get(p.name)!)}${p.target ? `; target ≥ ${p.target}×` : ' (a best case)'}`,
      ]),
      [
        "Circa's ceiling: main's statements alone",
        `${round(median(ceilingRatios))}×`,
        `metadata jobs with subjects, 64 a transaction, no workers: no policy drains faster; range ${range(ceilingRatios)}`,
      ],
      ['main loop delay p99 during drains', `${round(slowest)} ms`, 'the worst round'],
      [
        'idle start latency p50 / p99',
        `${round(latency.p50)} / ${round(latency.p99)} ms`,
        `max ${round(latency.max)} ms over ${latN}`,
      ],
      [
        'bulk enqueue, metadata with subjects',
        `${Math.round(bulkSubjects)} jobs/s`,
        `${bulkN} in one call (the import's path); target ≥ 100,000`,
      ],
      ['bulk enqueue, no subjects', `${Math.round(bulkPlain)} jobs/s`, `${bulkN} in one call`],
      [
        'user write p99 through main',
        `${round(mainWrites.p99)} ms`,
        `fixed 5 ms schedule, ${mainWrites.writes} writes: p50 ${round(mainWrites.p50)}, max ${round(mainWrites.max)} ms; WAL peak ${round(mainWrites.walPeakMB)} MB; target ≤ 10 ms`,
      ],
      [
        'user write p99 from another process',
        `${round(otherWrites.p99)} ms`,
        `${otherWrites.writes} writes: p50 ${round(otherWrites.p50)}, max ${round(otherWrites.max)} ms; WAL peak ${round(otherWrites.walPeakMB)} MB; target ≤ 50 ms`,
      ],
    ];
    console.log('');
    table(rows);
    console.log('');
    const result = {
      rounds,
      jobs: n,
      plainjobJobsPerSec: Math.round(median(plainRates)),
      ...Object.fromEntries(
        POLICIES.flatMap((p) => [
          [`${p.name}Ratio`, round(median(ratios.get(p.name)!))],
          [`${p.name}Ratios`, ratios.get(p.name)!.map((x) => round(x))],
          [`${p.name}JobsPerSec`, Math.round(median(rates.get(p.name)!))],
        ]),
      ),
      ceilingRatio: round(median(ceilingRatios)),
      ceilingRatios: ceilingRatios.map((x) => round(x)),
      startLatencyP50Ms: round(latency.p50, 3),
      startLatencyP99Ms: round(latency.p99, 3),
      bulkEnqueueSubjectsPerSec: Math.round(bulkSubjects),
      bulkEnqueueNoSubjectsPerSec: Math.round(bulkPlain),
      userWriteP99Ms: round(mainWrites.p99, 3),
      userWriteSamples: mainWrites.writes,
      otherProcessWriteP99Ms: round(otherWrites.p99, 3),
      otherProcessWriteSamples: otherWrites.writes,
      walPeakMBDuringWrites: round(Math.max(mainWrites.walPeakMB, otherWrites.walPeakMB)),
    };
    console.log(`RESULT ${JSON.stringify(result)}`);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
