/**
 * Queue benchmark (`npm run bench -- queue [--jobs N] [--bulk N] [--latency N]`). All parts run
 * in one process tree on the same disk (temporary folders under os.tmpdir()):
 *
 *  1. throughput: N pre-filled diag.noop jobs drained through the real path (claim → worker
 *     process → apply/finalize + audit), 2 worker processes. Timing starts once both workers
 *     are ready (the runner is started paused and resumed at t0) and stops when the runner has
 *     committed the last outcome.
 *  2. plainjob: the same N no-op jobs through plainjob 0.0.14 on better-sqlite3, 2 worker OS
 *     processes (its documented multi-process mode: each polls the shared file), no-op
 *     processor. Timing starts when both are told to go and stops at the last completion.
 *  3. start latency on an idle queue: single enqueues a few ms apart; "running" is the moment
 *     the handler started in the worker (a wall-clock timestamp the diag.noop handler returns),
 *     measured from just before the enqueue call.
 *  4. bulk enqueue: one enqueueMany of --bulk diag.noop jobs (validation, insert, audit).
 *  5. user write latency while the pool drains N jobs (see `userWrites`): a settings UPSERT in
 *     its own BEGIN IMMEDIATE transaction on a second connection every 5 ms, issued in main (how
 *     Circa's user writes happen; measured from when it was due) and, for comparison, from
 *     another process.
 *
 * The last line is `RESULT {…}` (machine-readable).
 */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { better, defineQueue } from 'plainjob';
import { openCore, type Core } from '../src/main/core/core';
import { forkWorkerSpawner } from '../src/main/jobs/fork-worker';
import type { SpawnWorker } from '../src/main/jobs/worker-process';
import { appPaths } from '../src/main/app-paths';

const here = path.dirname(fileURLToPath(import.meta.url));
const wall = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const noSpawn: SpawnWorker = () => {
  throw new Error('this core runs no jobs');
};

function arg(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

function pct(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

async function waitFor(fn: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!fn()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

/** The built worker when it is at least as new as the worker sources; otherwise source via tsx. */
function pickWorker(): { spawn: SpawnWorker; label: string } {
  const p = appPaths();
  const sources = [
    'src/worker/index.ts',
    'src/worker/handlers/diagnostic.ts',
    'src/worker/handlers/index.ts',
    'src/shared/worker-protocol.ts',
    'src/shared/jobs/errors.ts',
  ].map((f) => path.join(p.root, f));
  if (fs.existsSync(p.builtWorkerEntry)) {
    const built = fs.statSync(p.builtWorkerEntry).mtimeMs;
    if (sources.every((f) => !fs.existsSync(f) || fs.statSync(f).mtimeMs <= built)) {
      return { spawn: forkWorkerSpawner(p.builtWorkerEntry), label: 'built out/main/worker.js' };
    }
  }
  return {
    spawn: forkWorkerSpawner(p.sourceWorkerEntry, ['--import', 'tsx']),
    label: 'source via tsx (build is absent or older than the sources)',
  };
}

function child(mode: string, ...args: string[]): Promise<ChildProcess> {
  const proc = fork(path.join(here, 'queue.child.ts'), [mode, ...args], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    proc.once('message', (m: { t: string }) => (m.t === 'ready' ? resolve(proc) : reject(new Error(`unexpected ${m.t}`))));
    proc.once('exit', (code) => reject(new Error(`${mode} child exited early (${code})`)));
  });
}

function report<T>(proc: ChildProcess): Promise<T> {
  return new Promise((resolve) => {
    proc.once('message', (m) => resolve(m as T));
    proc.send({ t: 'stop' });
  });
}

async function fill(dir: string, n: number, payload: (i: number) => Record<string, unknown> = () => ({})): Promise<void> {
  const core = openCore({ libraryDir: dir, mode: 'headless', spawn: noSpawn, runJobs: false, diagnostics: true });
  const items = Array.from({ length: n }, (_, i) => ({ type: 'diag.noop', payload: payload(i) }));
  for (let i = 0; i < n; i += 50_000) core.jobs.enqueueMany(items.slice(i, i + 50_000), 'bench');
  await core.close();
}

/** Opens a paused runner over a pre-filled library and waits for its workers to be ready. */
async function openPaused(dir: string, spawn: SpawnWorker): Promise<Core> {
  const core = openCore({
    libraryDir: dir,
    mode: 'headless',
    spawn,
    diagnostics: true,
    concurrency: 2,
    runner: { paused: true, exitWhenIdle: true },
  });
  await waitFor(() => core.runner!.getStats().workersAlive === 2, 30_000, 'worker processes');
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

async function circaThroughput(root: string, n: number, spawn: SpawnWorker) {
  const dir = path.join(root, 'circa-throughput');
  await fill(dir, n);
  const core = await openPaused(dir, spawn);
  const lag = monitorEventLoopDelay({ resolution: 1 });
  lag.enable();
  const ms = await drain(core, n);
  lag.disable();
  const audit = core.ledger.verify();
  if (!audit.ok) throw new Error('audit ledger does not verify after the drain');
  const stats = core.runner!.getStats();
  await core.close();
  return {
    jobsPerSec: (n / ms) * 1000,
    ms,
    auditEvents: audit.checked,
    machineryErrors: stats.machineryErrors,
    loopP99: lag.percentile(99) / 1e6,
  };
}

async function plainjobThroughput(root: string, n: number) {
  const dir = path.join(root, 'plainjob');
  fs.mkdirSync(dir, { recursive: true });
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
  const total = reports.reduce((s, r) => s + r.count, 0);
  if (total !== n) throw new Error(`plainjob processed ${total} of ${n}`);
  const ms = Math.max(...reports.map((r) => r.last)) - t0;
  return { jobsPerSec: (n / ms) * 1000, ms };
}

async function startLatency(root: string, n: number, spawn: SpawnWorker) {
  const dir = path.join(root, 'latency');
  const core = openCore({ libraryDir: dir, mode: 'headless', spawn, diagnostics: true, concurrency: 2 });
  await waitFor(() => core.runner!.getStats().workersAlive === 2, 30_000, 'worker processes');
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
  await waitFor(() => core.jobs.counts().success === n + 20, 30_000, 'latency jobs');
  const rows = core.db.sqlite.prepare("SELECT key, value FROM settings WHERE key LIKE 'diag.diag.noop.lat-%'").all() as {
    key: string;
    value: string;
  }[];
  const lat = rows
    .map((r) => {
      const started = (JSON.parse(r.value) as { output: { startedAt: number } }).output.startedAt;
      return started - t0.get(r.key.slice('diag.diag.noop.'.length))!;
    })
    .sort((a, b) => a - b);
  await core.close();
  if (lat.length !== n || lat.some((x) => !Number.isFinite(x))) throw new Error('missing handler start timestamps');
  return { p50: pct(lat, 50), p99: pct(lat, 99), max: lat[lat.length - 1] };
}

async function bulkEnqueue(root: string, n: number) {
  const dir = path.join(root, 'bulk');
  const core = openCore({ libraryDir: dir, mode: 'headless', spawn: noSpawn, runJobs: false, diagnostics: true });
  // Warm up the statements and the JIT.
  for (let i = 0; i < 5; i++)
    core.jobs.enqueueMany(
      Array.from({ length: 2000 }, () => ({ type: 'diag.noop', payload: {} })),
      'bench',
    );
  const items = Array.from({ length: n }, () => ({ type: 'diag.noop', payload: {} }));
  const t0 = performance.now();
  const out = core.jobs.enqueueMany(items, 'bench');
  const ms = performance.now() - t0;
  if (out.length !== n || core.jobs.counts().queued !== n + 10_000) throw new Error('bulk enqueue lost jobs');
  await core.close();
  return { jobsPerSec: (n / ms) * 1000, ms };
}

/**
 * User writes while the pool drains N jobs. In Circa a user's write (accept evidence, edit a note)
 * is a request handled by main, so what it waits for is main's event loop: a timer in main fires
 * every 5 ms and commits one settings UPSERT in its own BEGIN IMMEDIATE transaction on a second
 * connection; its latency runs from when it was due to when it committed. For comparison,
 * another process does the same on its own connection (busy_timeout 5 s), where SQLite's busy
 * handler (sleeps of 1, 2, 5, 10 … ms) decides how long it waits for the write lock.
 */
async function userWrites(root: string, n: number, spawn: SpawnWorker) {
  const dir = path.join(root, 'user-writes');
  await fill(dir, n);
  const core = await openPaused(dir, spawn);
  const conn = new Database(core.paths.dbFile, { timeout: 5000 });
  conn.pragma('journal_mode = WAL');
  conn.pragma('synchronous = NORMAL');
  const upsert = conn.prepare(
    'INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
  );
  const write = conn.transaction((i: number) => upsert.run('bench.mainWrite', JSON.stringify({ i }), Date.now()));
  const inMain: number[] = [];
  let writing = true;
  let i = 0;
  const tick = (due: number) => {
    if (!writing) return;
    write.immediate(i++);
    inMain.push(performance.now() - due);
    const next = performance.now() + 5;
    setTimeout(() => tick(next), 5);
  };
  const writer = await child('writer', core.paths.dbFile, '5');
  writer.send({ t: 'go' });
  const first = performance.now() + 5;
  setTimeout(() => tick(first), 5);
  const ms = await drain(core, n);
  writing = false;
  const { latencies } = await report<{ latencies: number[] }>(writer);
  conn.close();
  await core.close();
  const a = inMain.slice().sort((x, y) => x - y);
  const b = latencies.slice().sort((x, y) => x - y);
  return {
    p50: pct(a, 50),
    p99: pct(a, 99),
    max: a[a.length - 1],
    writes: a.length,
    other: { p50: pct(b, 50), p99: pct(b, 99), max: b[b.length - 1], writes: b.length },
    drainMs: ms,
  };
}

export async function run(args: string[]): Promise<void> {
  const n = arg(args, 'jobs', 20_000);
  const bulkN = arg(args, 'bulk', 50_000);
  const latN = arg(args, 'latency', 500);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-bench-queue-'));
  const worker = pickWorker();
  console.log(`queue benchmark: ${n} jobs, ${os.availableParallelism()} cores, node ${process.version}, ${root}`);
  console.log(`worker processes: ${worker.label}`);
  try {
    const circa = await circaThroughput(root, n, worker.spawn);
    const plain = await plainjobThroughput(root, n);
    const latency = await startLatency(root, latN, worker.spawn);
    const bulk = await bulkEnqueue(root, bulkN);
    const writes = await userWrites(root, n, worker.spawn);

    const rows: [string, string, string][] = [
      [
        'Circa drain (2 worker processes)',
        `${Math.round(circa.jobsPerSec)} jobs/s`,
        `${n} jobs in ${Math.round(circa.ms)} ms; ${circa.auditEvents} audit events verified; main loop delay p99 ${round(circa.loopP99)} ms`,
      ],
      ['plainjob drain (2 processes)', `${Math.round(plain.jobsPerSec)} jobs/s`, `${n} jobs in ${Math.round(plain.ms)} ms`],
      ['ratio Circa / plainjob', `${round(circa.jobsPerSec / plain.jobsPerSec)}×`, 'target ≥ 2×'],
      ['idle start latency p50', `${round(latency.p50)} ms`, `enqueue call → handler start in the worker; target ≤ 2 ms`],
      ['idle start latency p99', `${round(latency.p99)} ms`, `max ${round(latency.max)} ms over ${latN}; target ≤ 10 ms`],
      [
        'bulk enqueue',
        `${Math.round(bulk.jobsPerSec)} jobs/s`,
        `${bulkN} jobs in ${Math.round(bulk.ms)} ms (one enqueueMany); target ≥ 100,000`,
      ],
      [
        'user write p99 under load',
        `${round(writes.p99)} ms`,
        `via main, due → committed: p50 ${round(writes.p50)} ms, max ${round(writes.max)} ms over ${writes.writes} writes; target ≤ 10 ms`,
      ],
      [
        '  (from another process)',
        `${round(writes.other.p99)} ms`,
        `p50 ${round(writes.other.p50)} ms, max ${round(writes.other.max)} ms over ${writes.other.writes} writes, waiting on SQLite's busy handler`,
      ],
    ];
    const w0 = Math.max(...rows.map((r) => r[0].length));
    const w1 = Math.max(...rows.map((r) => r[1].length));
    console.log('');
    for (const [a, b, c] of rows) console.log(`${a.padEnd(w0)}  ${b.padStart(w1)}  ${c}`);
    console.log('');
    const result = {
      circaJobsPerSec: Math.round(circa.jobsPerSec),
      plainjobJobsPerSec: Math.round(plain.jobsPerSec),
      ratio: round(circa.jobsPerSec / plain.jobsPerSec),
      startLatencyP50Ms: round(latency.p50, 3),
      startLatencyP99Ms: round(latency.p99, 3),
      bulkEnqueuePerSec: Math.round(bulk.jobsPerSec),
      userWriteP99Ms: round(writes.p99, 3),
    };
    console.log(`RESULT ${JSON.stringify(result)}`);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
