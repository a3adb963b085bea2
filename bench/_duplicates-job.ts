/**
 * The duplicate benchmark's second part: the `duplicate_scan` job through the runtime (a worker
 * process, checkpointed steps, SQLite) — a full scan of N photos, then new photos scanned
 * incrementally, to a worker that kept its copy and to one that holds none, in paired rounds.
 * With `profile`, main (in-process) and the worker (--cpu-prof) are profiled, and their samples
 * while the kept-copy scans ran are summarised.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openCore, type Core } from '../src/main/core/core';
import { forkWorkerSpawner } from '../src/main/jobs/fork-worker';
import { appPaths } from '../src/main/app-paths';
import type { MainHalf } from '../src/main/jobs/registry';
import type { AnyJobType } from '../src/shared/jobs/define';
import type { DuplicateScanInput } from '../src/shared/jobs/outputs/duplicate-scan';
import { HASHES_PER_PHOTO, hashesToBlob, hashesToHex } from '../src/shared/duplicates/hash-set';
import { LibraryCopy } from '../src/worker/duplicates/library-copy';
import { cpuProfFlags, profileThisProcess, summariseProfile, type Window } from './_cpu-profile';
import { D, WORDS, makeHashes, stat, timed } from './_duplicates-support';
import { processStat } from '../test/support/process-stat';
import { round, sleep } from './_util';

function spawner(flags: string[]) {
  const paths = appPaths();
  return fs.existsSync(paths.builtWorkerEntry)
    ? { spawn: forkWorkerSpawner(paths.builtWorkerEntry, flags), from: 'built worker' }
    : { spawn: forkWorkerSpawner(paths.sourceWorkerEntry, ['--import', 'tsx', ...flags]), from: 'worker from source (tsx)' };
}

export function seed(core: Core, words: Uint32Array, from: number, to: number): void {
  const photo = core.db.sqlite.prepare(
    `INSERT INTO photos (id, sha256, path, filename, size, metadata_status, imported_at, updated_at)
     VALUES (?, ?, ?, ?, 1, 'ready', 0, 0)`,
  );
  const hashes = core.db.sqlite.prepare(`INSERT INTO photo_hashes (photo_id, method, hashes, updated_at) VALUES (?, 2, ?, 0)`);
  core.db.immediate(() => {
    for (let i = from; i < to; i++) {
      const id = i + 1;
      photo.run(id, id.toString(16).padStart(64, '0'), `/bench/${id}.jpg`, `${id}.jpg`);
      hashes.run(id, Buffer.from(hashesToBlob(hashesToHex(words, i * WORDS))));
    }
  });
}

/** Reads the library as the scan job stores it: the N photos of `words` with ids 1..N, as one page. */
function asPage(words: Uint32Array, n: number) {
  const blobs = new Uint8Array(n * 8 * HASHES_PER_PHOTO);
  for (let i = 0; i < n; i++) blobs.set(hashesToBlob(hashesToHex(words, i * WORDS)), i * 8 * HASHES_PER_PHOTO);
  return {
    ids: Int32Array.from({ length: n }, (_, i) => i + 1),
    blobs,
    unscanned: Uint8Array.from({ length: n }, (_, i) => (i ? 0 : 1)),
  };
}

/** The bytes a worker's copy of N photos holds once searched (its index built), counted in this process. */
function copyBytes(n: number): number {
  const copy = new LibraryCopy('bench', 0, [asPage(makeHashes(n, 1), n)]);
  copy.search({ fromId: 1, toId: 1, maxDistance: D, maxPerPhoto: 50 });
  return copy.bytes();
}

/** CPU milliseconds a process has used so far (Linux: /proc/<pid>/stat, in clock ticks of 10 ms). */
const cpuOfProcess = (pid: number | undefined): number => processStat(pid)?.cpuMs ?? NaN;

/** The monotonic clock V8's profiles are stamped by, in microseconds. */
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

export async function jobRounds(n: number, fresh: number, rounds: number, profile: string | null = null) {
  if (profile) fs.mkdirSync(profile, { recursive: true });
  const { spawn: spawnWorker, from } = spawner(profile ? cpuProfFlags(profile) : []);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-bench-dupes-'));
  // The worker's CPU time as well as the wall time: on a busy host the wall time is mostly waiting for a core.
  let workerPid: number | undefined;
  const spawn: typeof spawnWorker = (opts) => {
    const worker = spawnWorker(opts);
    workerPid = worker.pid;
    return worker;
  };
  const core = openCore({ libraryDir: dir, mode: 'headless', spawn, concurrency: 1 });
  const words = makeHashes(n + fresh, 1);
  seed(core, words, 0, n);
  // Main's share of each step: the type's load and apply, timed where they run.
  const registered = core.jobs.registry.get('duplicate_scan')!;
  const main = { load: [] as number[], apply: [] as number[], cpu: 0 };
  const half = registered.half;
  // Wall time (on a busy machine it includes waiting for a core) and CPU time of main's share.
  const cpuMs = (before: NodeJS.CpuUsage) => {
    const used = process.cpuUsage(before);
    main.cpu = Math.max(main.cpu, (used.user + used.system) / 1000);
  };
  const measured = <T>(into: number[], fn: () => T): T => {
    const before = process.cpuUsage();
    const [out, ms] = timed(fn);
    cpuMs(before);
    into.push(ms);
    return out;
  };
  // A load may wait for the clock (scanStartTime): its time is until its input is ready.
  const measuredAsync = async <T>(into: number[], fn: () => T | Promise<T>): Promise<T> => {
    const before = process.cpuUsage();
    const t0 = performance.now();
    const out = await fn();
    cpuMs(before);
    into.push(performance.now() - t0);
    return out;
  };
  // A worker without a copy of this library (a new or restarted process): its probe names another.
  let withoutCopy = false;
  core.jobs.registry.replaceHalf('duplicate_scan', {
    load: async (job, ctx) => {
      const input = (await measuredAsync(main.load, () => half.load(job, ctx))) as DuplicateScanInput;
      return withoutCopy && input.kind === 'probe' ? { ...input, library: 'another library' } : input;
    },
    apply: (out, job) => measured(main.apply, () => half.apply(out, job)),
  } as MainHalf<AnyJobType>);
  // While the kept-copy scans ran (for the profiles).
  const keptWindows: Window[] = [];
  const run = async (fullSend: boolean) => {
    withoutCopy = fullSend;
    const fromUs = nowUs();
    main.load.length = main.apply.length = main.cpu = 0;
    const cpu0 = { main: process.cpuUsage(), worker: cpuOfProcess(workerPid) };
    const t0 = performance.now();
    const { job } = core.jobs.enqueue({ type: 'duplicate_scan', payload: {} });
    for (;;) {
      const row = core.jobs.queries.get(job.id)!;
      if (row.status === 'success') break;
      if (row.status !== 'queued' && row.status !== 'running') throw new Error(`scan ${row.status}: ${row.error_message}`);
      await sleep(2);
    }
    const mainCpu = process.cpuUsage(cpu0.main);
    if (!fullSend) keptWindows.push({ fromUs, toUs: nowUs() });
    return {
      ms: performance.now() - t0,
      cpuMs: (mainCpu.user + mainCpu.system) / 1000 + cpuOfProcess(workerPid) - cpu0.worker,
      steps: main.load.length,
      load: Math.max(...main.load),
      apply: Math.max(...main.apply),
      cpu: main.cpu,
    };
  };
  type Run = Awaited<ReturnType<typeof run>>;
  const full: Run[] = [];
  const send: Run[] = [];
  const kept: Run[] = [];
  seed(core, words, n, n + fresh);
  const stopMainProfile = profile ? await profileThisProcess(path.join(profile, 'main.cpuprofile')) : null;
  const newIds = `photo_id > ${n}`;
  for (let r = 0; r < rounds; r++) {
    // The full scan covers the library without the new photos (by an older method: left out).
    core.db.sqlite.exec(`UPDATE photo_hashes SET scanned_distance = NULL; DELETE FROM duplicate_pairs;`);
    core.db.sqlite.exec(`UPDATE photo_hashes SET method = 1 WHERE ${newIds}`);
    full.push(await run(true));
    core.db.sqlite.exec(`UPDATE photo_hashes SET method = 2 WHERE ${newIds}`);
    // Then the new photos, paired: to a worker that kept its copy, and to one that holds none
    // (the whole library sent again), in alternating order. Each time they arrive anew, as an
    // import's metadata writes them: stamped now, not scanned, no pairs yet.
    const order = r % 2 ? [false, true] : [true, false];
    const times: string[] = [];
    for (const fullSend of order) {
      core.db.sqlite.exec(`DELETE FROM duplicate_pairs WHERE photo_hi > ${n}`);
      core.db.sqlite.prepare(`UPDATE photo_hashes SET scanned_distance = NULL, updated_at = ? WHERE ${newIds}`).run(Date.now());
      const result = await run(fullSend);
      (fullSend ? send : kept).push(result);
      times.push(`${fullSend ? 'whole library sent' : 'copy kept'} ${round(result.ms, 0)} ms (CPU ${round(result.cpuMs, 0)} ms)`);
    }
    const f = full[r];
    console.log(
      `  round ${r + 1}: full scan ${round(f.ms, 0)} ms (CPU ${round(f.cpuMs, 0)} ms); ${fresh} new: ${times.join(', ')}`,
    );
  }
  const pairs = core.db.sqlite.prepare('SELECT count(*) FROM duplicate_pairs').pluck().get() as number;
  await stopMainProfile?.();
  await core.close();
  fs.rmSync(dir, { recursive: true, force: true });
  if (profile) {
    // The worker writes its profile as it exits (core.close above).
    console.log(`\nProfiles in ${profile}, samples while the ${keptWindows.length} kept-copy scans ran:`);
    for (const f of fs.readdirSync(profile).filter((f) => f.endsWith('.cpuprofile')))
      console.log(summariseProfile(path.join(profile, f), 24, keptWindows));
  }
  const summary = (runs: Run[]) => ({
    ms: stat(runs.map((x) => x.ms)),
    /** Main's and the worker's CPU time together: what the scan costs without waiting for a core. */
    cpuMs: stat(runs.map((x) => x.cpuMs)),
    steps: runs[0].steps,
    longestLoadMs: round(Math.max(...runs.map((x) => x.load)), 1),
    longestApplyMs: round(Math.max(...runs.map((x) => x.apply)), 1),
    longestStepCpuMs: round(Math.max(...runs.map((x) => x.cpu)), 1),
  });
  const ratios = kept.map((k, r) => send[r].ms / k.ms);
  const cpuRatios = kept.map((k, r) => send[r].cpuMs / k.cpuMs);
  return {
    worker: from,
    full: summary(full),
    incrementalWholeLibrarySent: summary(send),
    incremental: summary(kept),
    incrementalSpeedup: stat(ratios),
    incrementalCpuSpeedup: stat(cpuRatios),
    copyMb: round(copyBytes(n) / 2 ** 20, 1),
    pairs,
  };
}
