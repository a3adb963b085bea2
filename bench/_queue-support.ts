/** What the queue-shaped benchmarks share: the worker build to use and their child processes (queue.child.ts). */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { forkWorkerSpawner } from '../src/main/jobs/fork-worker';
import type { SpawnWorker } from '../src/main/jobs/worker-process';
import { appPaths } from '../src/main/app-paths';
import { openCore } from '../src/main/core/core';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The built worker when it is at least as new as the worker sources; otherwise source via tsx. */
export function pickWorker(): { spawn: SpawnWorker; label: string } {
  const p = appPaths();
  const newestSource = newestMtime([path.join(p.root, 'src/worker'), path.join(p.root, 'src/shared')]);
  if (fs.existsSync(p.builtWorkerEntry) && fs.statSync(p.builtWorkerEntry).mtimeMs >= newestSource) {
    return { spawn: forkWorkerSpawner(p.builtWorkerEntry), label: 'built out/main/worker.js' };
  }
  return {
    spawn: forkWorkerSpawner(p.sourceWorkerEntry, ['--import', 'tsx']),
    label: 'source via tsx (the build is absent or older than the sources: run `npm run build` first)',
  };
}

function newestMtime(dirs: string[]): number {
  let newest = 0;
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.test.ts')) newest = Math.max(newest, fs.statSync(p).mtimeMs);
    }
  };
  dirs.forEach(walk);
  return newest;
}

/** Starts a bench/queue.child.ts process in `mode`; resolves once it says it is ready. */
export function child(mode: string, ...args: string[]): Promise<ChildProcess> {
  const proc = fork(path.join(here, 'queue.child.ts'), [mode, ...args], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    proc.once('message', (m: { t: string }) => (m.t === 'ready' ? resolve(proc) : reject(new Error(`unexpected ${m.t}`))));
    proc.once('exit', (code) => reject(new Error(`${mode} child exited early (${code})`)));
  });
}

/** Asks a child to stop and resolves with its report. */
export function report<T>(proc: ChildProcess): Promise<T> {
  return new Promise((resolve) => {
    proc.once('message', (m) => resolve(m as T));
    proc.send({ t: 'stop' });
  });
}

/** For a core that must run no jobs (filling a library, the ceiling's drain). */
export const noSpawn: SpawnWorker = () => {
  throw new Error('this core runs no jobs');
};

/** Fills the library in `dir` with `n` queued jobs of `type` (each with its subject `k<i>` when `subjects`). */
export async function fill(dir: string, n: number, type: string, subjects: boolean): Promise<void> {
  const core = openCore({ libraryDir: dir, mode: 'headless', spawn: noSpawn, runJobs: false, diagnostics: true });
  const items = Array.from({ length: n }, (_, i) => ({ type, payload: subjects ? { key: `k${i}` } : {} }));
  for (let i = 0; i < n; i += 50_000) core.jobs.enqueueMany(items.slice(i, i + 50_000), 'bench');
  await core.close();
}
