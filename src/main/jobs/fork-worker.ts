/** Worker processes as forked Node children: browser mode, the headless runner and tests. */
import { fork } from 'node:child_process';
import type { MainToWorker } from '../../shared/worker-protocol';
import { TailBuffer, type SpawnWorker, type WorkerExit } from './worker-process';

/**
 * `entry` is the built worker (out/main/worker.js) or, from source, src/worker/index.ts with
 * `loaderArgs` ['--import', 'tsx'].
 */
export function forkWorkerSpawner(entry: string, loaderArgs: string[] = []): SpawnWorker {
  return ({ heapMb, name, env }) => {
    const stderr = new TailBuffer();
    const child = fork(entry, [`--name=${name}`], {
      execArgv: [...loaderArgs, `--max-old-space-size=${heapMb}`],
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr.push(chunk);
      process.stderr.write(chunk);
    });
    const exitListeners: ((e: WorkerExit) => void)[] = [];
    let exited = false;
    child.on('exit', (code, signal) => {
      exited = true;
      // Let the last stderr chunk arrive before reporting (V8's OOM message comes just before exit).
      setTimeout(() => exitListeners.forEach((cb) => cb({ code, signal, stderrTail: stderr.toString() })), 20);
    });
    child.on('error', () => {
      /* spawn errors surface as an exit */
    });
    return {
      pid: child.pid,
      send(msg: MainToWorker) {
        if (!exited && child.connected) child.send(msg);
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
