/**
 * A job worker runs below this process's priority, every thread of it, from the moment it is
 * spawned: checked on a real worker process forked by the fork adapter (the Electron adapter calls
 * the same helper on its utility process's pid). The expectation is relative to this test's own
 * priority, which the test never changes, so it holds however the suite was started.
 */
import fs from 'node:fs';
import os from 'node:os';
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { appPaths } from '../app-paths';
import { forkWorkerSpawner } from './fork-worker';
import { lowerWorkerPriority, workerPriority, WORKER_NICENESS } from './worker-priority';
import type { WorkerProcess } from './worker-process';

const ends: (() => void)[] = [];
afterEach(() => ends.splice(0).forEach((end) => end()));

/** Each thread's priority (Linux: a priority belongs to a thread), or the process's elsewhere. */
function threadPriorities(pid: number): number[] {
  if (process.platform !== 'linux') return [os.getPriority(pid)];
  return fs.readdirSync(`/proc/${pid}/task`).map((tid) => os.getPriority(Number(tid)));
}

async function startedWorker(): Promise<WorkerProcess & { pid: number }> {
  const worker = forkWorkerSpawner(appPaths().sourceWorkerEntry, ['--import', 'tsx'])({
    heapMb: 256,
    name: 'priority-test',
    env: {},
  });
  ends.push(() => worker.kill());
  // Ready: its modules are loaded and every thread it starts at startup is running.
  await new Promise<void>((resolve) => worker.onMessage((m) => (m as { t?: string }).t === 'ready' && resolve()));
  expect(worker.pid).toBeTypeOf('number');
  return worker as WorkerProcess & { pid: number };
}

describe('worker priority', () => {
  it('is "below normal": WORKER_NICENESS below this process, no lower than the lowest', () => {
    expect(WORKER_NICENESS).toBe(10);
    expect(workerPriority()).toBe(Math.min(19, os.getPriority() + 10));
  });

  it('a forked worker runs below this process, every thread of it', async () => {
    const worker = await startedWorker();
    expect(os.getPriority(worker.pid)).toBe(workerPriority());
    const threads = threadPriorities(worker.pid);
    expect(threads.length).toBeGreaterThan(process.platform === 'linux' ? 1 : 0);
    expect(threads.every((p) => p === workerPriority())).toBe(true);
  });

  it.runIf(fs.existsSync('/proc/self/autogroup'))(
    'on Linux with autogroup, a forked worker is a group of its own, at the lower priority; main is untouched',
    async () => {
      const autogroup = (pid: number | 'self') => fs.readFileSync(`/proc/${pid}/autogroup`, 'utf8').trim();
      const [mine, myPriority] = [autogroup('self'), os.getPriority()];
      const worker = await startedWorker();
      const group = (line: string) => line.split(' ')[0];
      expect(group(autogroup(worker.pid))).not.toBe(group(mine));
      expect(autogroup(worker.pid)).toMatch(new RegExp(`nice ${workerPriority()}$`));
      expect([autogroup('self'), os.getPriority()]).toEqual([mine, myPriority]);
    },
  );

  it('never raises a process that already runs lower', () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    ends.push(() => child.kill('SIGKILL'));
    os.setPriority(child.pid!, 19);
    lowerWorkerPriority(child.pid!, (msg) => expect.fail(msg));
    expect(os.getPriority(child.pid!)).toBe(19);
  });

  it('a process it cannot set is logged, not thrown', async () => {
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    await new Promise((resolve) => child.on('exit', resolve));
    const warnings: string[] = [];
    expect(() => lowerWorkerPriority(child.pid!, (msg) => warnings.push(msg))).not.toThrow();
    expect(warnings).toEqual([expect.stringMatching(new RegExp(`worker process ${child.pid}.*normal priority`))]);
  });
});
