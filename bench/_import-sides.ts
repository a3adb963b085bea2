/**
 * The import benchmark's sides (see import.ts): Circa's import end to end, and the bare and
 * minimal loops over the same files, each timed from when its processes are ready.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openCore } from '../src/main/core/core';
import { forkWorkerSpawner } from '../src/main/jobs/fork-worker';
import { lowerWorkerPriority } from '../src/main/jobs/worker-priority';
import { processStat } from '../test/support/process-stat';
import { appPaths } from '../src/main/app-paths';
import { sleep } from './_util';
import { cpuProfFlags, profileThisProcess } from './_cpu-profile';
import type { BareWork } from './import.child';

const here = path.dirname(fileURLToPath(import.meta.url));

/** `extraArgs`: more Node flags for each worker (the profile's --cpu-prof). */
export function spawner(extraArgs: string[] = []) {
  const paths = appPaths();
  return fs.existsSync(paths.builtWorkerEntry)
    ? { spawn: forkWorkerSpawner(paths.builtWorkerEntry, extraArgs), from: 'built worker (out/main/worker.js)' }
    : {
        spawn: forkWorkerSpawner(paths.sourceWorkerEntry, ['--import', 'tsx', ...extraArgs]),
        from: 'worker from source via tsx (run npm run build for the built one)',
      };
}

export interface CircaRun {
  seconds: number;
  /** From the import's start until the first photo had its thumbnail (its metadata applied). */
  firstThumbnailSeconds: number;
  /** From the import's start until the walk was over: every file hashed, its row and job written. */
  walkSeconds: number;
  from: string;
  walPeakBytes: number;
  /** Photos/s over the last tenth of the import divided by photos/s over the first tenth. */
  flatness: number;
  mainRssPeakMb: number;
  workerRssPeakMb: number;
  /** CPU time per photo of main (this process) and of the workers together, in ms. */
  mainCpuMsPerPhoto: number;
  workerCpuMsPerPhoto: number;
}

/** CPU time (user + system) a process has used, from /proc (Linux; clock ticks of 10 ms); 0 where there is none. */
const cpuMsOf = (pid: number | undefined): number => processStat(pid)?.cpuMs ?? 0;

/** Resident memory of a process, from /proc (Linux); 0 where there is none. */
function rssOf(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** `profileDir`: main's and each worker's CPU profile are written there (see _cpu-profile.ts). */
export async function circaImport(dir: string, n: number, profileDir?: string): Promise<CircaRun> {
  const { spawn: spawnWorker, from } = spawner(profileDir ? cpuProfFlags(profileDir) : []);
  const workerPids: (number | undefined)[] = [];
  const spawn: typeof spawnWorker = (o) => {
    const w = spawnWorker(o);
    workerPids.push(w.pid);
    return w;
  };
  const core = openCore({
    libraryDir: fs.mkdtempSync(path.join(os.tmpdir(), 'circa-bench-lib-')),
    mode: 'headless',
    spawn,
    concurrency: 2,
  });
  // Workers ready before the clock starts (startup is not import work).
  while ((core.runner?.getStats().workersAlive ?? 0) < 2) await sleep(10);
  const stopProfile = profileDir ? await profileThisProcess(path.join(profileDir, 'main.cpuprofile')) : null;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const workerCpu0 = workerPids.map(cpuMsOf);
  core.importer.start([dir]);
  // Watched through in-memory counters: a query every 20 ms would be the benchmark's own load on
  // main. The import's progress is asked for on each photos.changed event (at most five a
  // second), as the Library screen asks while the import's photos are read (it asks only after
  // the walk; here from the start).
  const runner = core.runner!;
  let walkAt = 0;
  const unsubscribe = core.events.subscribe((name, payload) => {
    if (name === 'photos.changed') core.importer.status();
    if (name === 'import.progress' && !walkAt && (payload as { status: string }).status !== 'running') walkAt = performance.now();
  });
  const wal = `${core.paths.dbFile}-wal`;
  let walPeakBytes = 0;
  let mainRssPeak = 0;
  let workerRssPeak = 0;
  // When the first tenth and the last tenth of the photos were done (the first tenth counted from
  // the first photo done, so the walk's start-up is not taken for a slow rate).
  const tenth = Math.max(1, Math.floor(n / 10));
  let firstAt = 0;
  let firstTenthAt = 0;
  let ninetyAt = 0;
  for (let tick = 0; ; tick++) {
    await sleep(20);
    walPeakBytes = Math.max(walPeakBytes, fs.existsSync(wal) ? fs.statSync(wal).size : 0);
    if (tick % 10 === 0) {
      mainRssPeak = Math.max(mainRssPeak, process.memoryUsage.rss());
      for (const pid of workerPids) workerRssPeak = Math.max(workerRssPeak, rssOf(pid));
    }
    const s = runner.getStats();
    const done = s.succeeded + s.failed;
    if (!firstAt && done >= 1) firstAt = performance.now();
    if (!firstTenthAt && done >= 1 + tenth) firstTenthAt = performance.now();
    if (!ninetyAt && done >= n - tenth) ninetyAt = performance.now();
    if (done >= n && core.importer.status()?.status !== 'running') break;
  }
  const end = performance.now();
  await stopProfile?.();
  unsubscribe();
  const mainCpu = process.cpuUsage(cpu0);
  const workerCpuMs = workerPids.reduce<number>((sum, pid, i) => sum + cpuMsOf(pid) - (workerCpu0[i] ?? 0), 0);
  const seconds = (end - t0) / 1000;
  const flatness = (firstTenthAt - firstAt) / Math.max(1, end - ninetyAt);
  const failed = core.jobs.counts().failed;
  const ready = core.photos.list({ sort: 'imported', filter: 'all', limit: 1 }).total - failed;
  await core.close();
  fs.rmSync(core.paths.dir, { recursive: true, force: true });
  if (ready !== n) throw new Error(`expected ${n} photos with thumbnails, got ${ready} (${failed} failed)`);
  return {
    seconds,
    firstThumbnailSeconds: (firstAt - t0) / 1000,
    walkSeconds: ((walkAt || end) - t0) / 1000,
    from,
    walPeakBytes,
    flatness,
    mainRssPeakMb: mainRssPeak / 1e6,
    workerRssPeakMb: workerRssPeak / 1e6,
    mainCpuMsPerPhoto: (mainCpu.user + mainCpu.system) / 1000 / n,
    workerCpuMsPerPhoto: workerCpuMs / n,
  };
}

/** A process that keeps one core busy until killed: the "never idle" laptop of --load. */
export function startLoad(): ChildProcess {
  return spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
}

/**
 * The bare loop: two plain Node processes, started (and their modules loaded) before the clock
 * starts, exactly as Circa's workers are; each takes every other file. With `profileDir`, each
 * writes its CPU profile there as it exits.
 */
export async function bareLoop(
  dir: string,
  work: BareWork,
  profileDir?: string,
): Promise<{ seconds: number; cpuMsPerPhoto: number }> {
  const files = fs
    .readdirSync(dir)
    .sort()
    .map((f) => path.join(dir, f));
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-bench-bare-'));
  const children = await Promise.all(
    [0, 1].map(
      () =>
        new Promise<ChildProcess>((resolve, reject) => {
          // Placed as Circa's workers are (src/main/jobs/fork-worker.ts), so the ratio compares work, not scheduling.
          const child = fork(path.join(here, 'import.child.ts'), [], {
            execArgv: ['--import', 'tsx', ...(profileDir ? cpuProfFlags(profileDir) : [])],
            detached: process.platform !== 'win32',
          });
          if (child.pid !== undefined) lowerWorkerPriority(child.pid);
          child.once('message', () => resolve(child)); // { ready: true }
          child.once('error', reject);
        }),
    ),
  );
  const t0 = performance.now();
  const cpu0 = children.map((child) => cpuMsOf(child.pid));
  await Promise.all(
    children.map(
      (child, k) =>
        new Promise<void>((resolve, reject) => {
          child.once('message', () => resolve()); // { done: true }
          child.once('exit', (code) => reject(new Error(`bare loop worker exited with ${code}`)));
          child.send({ files: files.filter((_, i) => i % 2 === k), out, work });
        }),
    ),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpuMs = children.reduce((sum, child, i) => sum + cpuMsOf(child.pid) - cpu0[i], 0);
  // A profiled child must exit by itself to write its profile: it does once its channel closes.
  if (profileDir) await Promise.all(children.map((child) => new Promise((r) => (child.once('exit', r), child.disconnect()))));
  else for (const child of children) child.kill();
  fs.rmSync(out, { recursive: true, force: true });
  return { seconds, cpuMsPerPhoto: cpuMs / files.length };
}
