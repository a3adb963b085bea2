/** Worker processes as Electron utilityProcesses (the app's own process type for this). */
import { app, utilityProcess } from 'electron';
import type { MainToWorker } from '../../shared/worker-protocol';
import { TailBuffer, exitKindOf, type SpawnWorker, type WorkerExit } from '../jobs/worker-process';
import { lowerWorkerPriority } from '../jobs/worker-priority';
import {
  isGoneWorker,
  utilityErrorLine,
  utilityExitKind,
  utilityForkOptions,
  workerServiceName,
  type ChildProcessGone,
} from './worker-options';

/** Electron's word on how each utility process ended (app `child-process-gone`), by service name, until its exit reads it. */
const goneByService = new Map<string, ChildProcessGone>();
let listening = false;
function listenForGoneWorkers(): void {
  if (listening) return;
  listening = true;
  app.on('child-process-gone', (_event, details) => {
    const name = details.name ?? details.serviceName;
    if (details.type === 'Utility' && name?.startsWith(workerServiceName(''))) goneByService.set(name, details);
  });
}

/** How long after `exit` the verdicts that may arrive just after it (error, child-process-gone) are waited for. */
const EXIT_SETTLE_MS = 100;

export function utilityWorkerSpawner(entry: string): SpawnWorker {
  listenForGoneWorkers();
  return ({ heapMb, name, env }) => {
    const stderr = new TailBuffer();
    const serviceName = workerServiceName(name);
    goneByService.delete(serviceName);
    const child = utilityProcess.fork(
      entry,
      [`--name=${name}`],
      utilityForkOptions({ name, heapMb, env: { ...process.env, ...env } }),
    );
    // Below normal priority once it has a pid: background work must not take the CPU from the user.
    child.once('spawn', () => {
      if (child.pid !== undefined) lowerWorkerPriority(child.pid);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr.push(chunk);
      process.stderr.write(chunk);
    });
    // A V8 fatal error: Electron says so before the exit; with child-process-gone it decides the exit's kind.
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
        const details = goneByService.get(serviceName) ?? null;
        const gone = details && isGoneWorker(details, serviceName) ? details : null;
        goneByService.delete(serviceName);
        if (gone?.reason === 'oom')
          stderr.push(`utility process ran out of memory (${gone.reason}, exit code ${gone.exitCode})\n`);
        const kind = utilityExitKind(fatal, gone, code) ?? exitKindOf(code, null, tail);
        exitListeners.forEach((cb) => cb({ kind, code, signal: null, stderrTail: stderr.toString() }));
      }, EXIT_SETTLE_MS);
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
