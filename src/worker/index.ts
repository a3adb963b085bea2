/**
 * Worker process entry. Started as an Electron utilityProcess in the app and as a forked Node
 * child in browser mode, the headless runner and tests; the message protocol is the same
 * (src/shared/worker-protocol.ts). It runs one job at a time, never opens the database, and
 * exits when its parent goes away.
 */
import { serializeJobError } from '../shared/jobs/errors';
import type { JobAssignment, MainToWorker, WorkerToMain } from '../shared/worker-protocol';
import { workerHandlers } from './handlers';

interface ParentPort {
  postMessage(msg: WorkerToMain): void;
  on(event: 'message', cb: (e: { data: MainToWorker }) => void): void;
}

const electronPort = (process as unknown as { parentPort?: ParentPort }).parentPort;

function send(msg: WorkerToMain): void {
  if (electronPort) electronPort.postMessage(msg);
  else if (process.send && process.connected) process.send(msg);
}

function onParentMessage(cb: (msg: MainToWorker) => void): void {
  if (electronPort) electronPort.on('message', (e) => cb(e.data));
  else process.on('message', (m) => cb(m as MainToWorker));
}

const handlers = workerHandlers({ diagnostics: process.env.CIRCA_DIAGNOSTIC_JOBS === '1' });
const queue: JobAssignment[] = [];
let current: { job: JobAssignment; controller: AbortController } | null = null;

async function runNext(): Promise<void> {
  if (current) return;
  const job = queue.shift();
  if (!job) return;
  const controller = new AbortController();
  current = { job, controller };
  let lastProgress = 0;
  const ctx = {
    jobId: job.jobId,
    attempt: job.attempt,
    signal: controller.signal,
    progress(fraction: number, message?: string) {
      const now = Date.now();
      if (now - lastProgress < 100 && fraction < 1) return;
      lastProgress = now;
      send({ t: 'progress', jobId: job.jobId, attempt: job.attempt, progress: fraction, message });
    },
  };
  try {
    const handler = handlers[job.type];
    if (!handler) throw Object.assign(new Error(`No handler is registered for job type ${job.type}`), { name: 'PermanentJobError' });
    const output = await handler(job.input, ctx);
    send({ t: 'result', jobId: job.jobId, attempt: job.attempt, ok: true, output });
  } catch (err) {
    const error = controller.signal.aborted
      ? { kind: 'retryable' as const, message: `Aborted: ${String(controller.signal.reason?.message ?? controller.signal.reason)}` }
      : serializeJobError(err);
    if ((err as Error)?.name === 'PermanentJobError') error.kind = 'permanent';
    send({ t: 'result', jobId: job.jobId, attempt: job.attempt, ok: false, error });
  } finally {
    current = null;
    setImmediate(runNext);
  }
}

onParentMessage((msg) => {
  switch (msg.t) {
    case 'ping':
      send({ t: 'pong', seq: msg.seq });
      return;
    case 'run':
      queue.push(...msg.jobs);
      void runNext();
      return;
    case 'abort': {
      if (current && current.job.jobId === msg.jobId && current.job.attempt === msg.attempt) {
        current.controller.abort(new Error(msg.reason));
        return;
      }
      const i = queue.findIndex((j) => j.jobId === msg.jobId && j.attempt === msg.attempt);
      if (i >= 0) {
        queue.splice(i, 1);
        send({ t: 'result', jobId: msg.jobId, attempt: msg.attempt, ok: false, error: { kind: 'retryable', message: `Aborted before it started: ${msg.reason}` } });
      }
      return;
    }
    case 'shutdown':
      process.exit(0);
  }
});

// Exit when the parent goes away (a forked child loses its IPC channel; a utilityProcess is
// reaped by Electron, and the ppid check covers a parent killed with SIGKILL).
process.on('disconnect', () => process.exit(0));
const parentPid = process.ppid;
setInterval(() => {
  if (process.ppid !== parentPid) process.exit(0);
}, 1000).unref();

send({ t: 'ready', pid: process.pid, types: Object.keys(handlers) });
