/** Worker processes as Electron utilityProcesses (the app's own process type for this). */
import { utilityProcess } from 'electron';
import type { MainToWorker } from '../../shared/worker-protocol';
import { TailBuffer, exitKindOf, type SpawnWorker, type WorkerExit } from '../jobs/worker-process';
import { utilityErrorLine, utilityExitKind, utilityForkOptions } from './worker-options';

export function utilityWorkerSpawner(entry: string): SpawnWorker {
  return ({ heapMb, name, env }) => {
    const stderr = new TailBuffer();
    const child = utilityProcess.fork(
      entry,
      [`--name=${name}`],
      utilityForkOptions({ name, heapMb, env: { ...process.env, ...env } }),
    );
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr.push(chunk);
      process.stderr.write(chunk);
    });
    // A V8 fatal error (e.g. out of memory): Electron says so before the exit; it decides the exit's kind.
    let fatal: { type: string; location: string } | null = null;
    child.on('error', (type, location) => {
      fatal = { type, location };
      stderr.push(Buffer.from(utilityErrorLine(type, location)));
    });
    const exitListeners: ((e: WorkerExit) => void)[] = [];
    let exited = false;
    child.on('exit', (code) => {
      exited = true;
      setTimeout(() => {
        const tail = stderr.toString();
        const kind = utilityExitKind(fatal) ?? exitKindOf(code, null, tail);
        exitListeners.forEach((cb) => cb({ kind, code, signal: null, stderrTail: tail }));
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
