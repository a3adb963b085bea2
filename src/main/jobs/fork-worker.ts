/** Worker processes as forked Node children: browser mode, the headless runner and tests. */
import { fork } from 'node:child_process';
import type { MainToWorker } from '../../shared/worker-protocol';
import { TailBuffer, exitKindOf, workerV8Flags, type SpawnWorker, type WorkerExit } from './worker-process';
import { lowerWorkerPriority } from './worker-priority';

/**
 * `entry` is the built worker (out/main/worker.js) or, from source, src/worker/index.ts with
 * `loaderArgs` ['--import', 'tsx'].
 */
export function forkWorkerSpawner(entry: string, loaderArgs: string[] = []): SpawnWorker {
  return ({ heapMb, name, env }) => {
    const stderr = new TailBuffer();
    const child = fork(entry, [`--name=${name}`], {
      execArgv: [...loaderArgs, ...workerV8Flags(heapMb)],
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
      serialization: 'advanced',
      // A session of its own (Unix): where Linux schedules sessions as groups (autogroup), its
      // group's priority can then be lowered without lowering main's (./worker-priority.ts). It
      // still ends with main: a worker exits when its parent goes away.
      detached: process.platform !== 'win32',
    });
    // Below normal priority: background work must not take the CPU from the user.
    if (child.pid !== undefined) lowerWorkerPriority(child.pid);
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr.push(chunk);
      process.stderr.write(chunk);
    });
    const exitListeners: ((e: WorkerExit) => void)[] = [];
    let exited = false;
    const report = (code: number | null, signal: string | null, launchError?: Error) => {
      if (exited) return;
      exited = true;
      // Let the last stderr chunk arrive before reporting (V8's OOM report comes just before the abort).
      setTimeout(() => {
        const tail = stderr.toString();
        const exit: WorkerExit = launchError
          ? { kind: 'failed_to_launch', code, signal, stderrTail: launchError.message }
          : { kind: exitKindOf(code, signal, tail), code, signal, stderrTail: tail };
        exitListeners.forEach((cb) => cb(exit));
      }, 20);
    };
    child.on('exit', (code, signal) => report(code, signal));
    // The process could not be started (missing executable, too many processes): no exit follows.
    child.on('error', (err) => {
      if (child.pid === undefined) report(null, null, err);
    });
    return {
      pid: child.pid,
      send(msg: MainToWorker) {
        if (!exited && child.connected) child.send(msg, (err) => void err);
      },
      onMessage(cb) {
        child.on('message', cb);
      },
      onExit(cb) {
        exitListeners.push(cb);
      },
      kill() {
        if (!exited) child.kill('SIGKILL');
      },
    };
  };
}
