/** Worker processes as Electron utilityProcesses (the app's own process type for this). */
import { utilityProcess } from 'electron';
import type { MainToWorker } from '../../shared/worker-protocol';
import { TailBuffer, exitKindOf, type SpawnWorker, type WorkerExit } from '../jobs/worker-process';

export function utilityWorkerSpawner(entry: string): SpawnWorker {
  return ({ heapMb, name, env }) => {
    const stderr = new TailBuffer();
    const child = utilityProcess.fork(entry, [`--name=${name}`], {
      serviceName: `Circa worker ${name}`,
      execArgv: [`--max-old-space-size=${heapMb}`],
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'pipe'],
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr.push(chunk);
      process.stderr.write(chunk);
    });
    const exitListeners: ((e: WorkerExit) => void)[] = [];
    let exited = false;
    child.on('exit', (code) => {
      exited = true;
      setTimeout(() => {
        const tail = stderr.toString();
        const exit: WorkerExit = { kind: exitKindOf(code, null, tail), code, signal: null, stderrTail: tail };
        exitListeners.forEach((cb) => cb(exit));
      }, 20);
    });
    return {
      get pid() {
        return child.pid;
      },
      send(msg: MainToWorker) {
        if (!exited) child.postMessage(msg);
      },
      onMessage(cb) {
        child.on('message', cb);
      },
      onExit(cb) {
        exitListeners.push(cb);
      },
      kill() {
        if (!exited) child.kill();
      },
    };
  };
}
