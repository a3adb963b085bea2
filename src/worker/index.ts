/**
 * Worker process entry. Started as an Electron utilityProcess in the app and as a forked Node
 * child in browser mode, the headless runner and tests; the message protocol is the same
 * (src/shared/worker-protocol.ts). It runs one job at a time, never opens the database, and
 * exits when its parent goes away.
 */
import { PermanentJobError, serializeJobError, type SerializedJobError } from '../shared/jobs/errors';
import {
  mainToWorkerSchema,
  readMessage,
  type JobAssignment,
  type JobResultMessage,
  type MainToWorker,
  type WorkerToMain,
} from '../shared/worker-protocol';
import { workerHandlers } from './handlers';
import { HeapWatch, heapReport } from './heap-report';

interface ParentPort {
  postMessage(msg: WorkerToMain): void;
  on(event: 'message', cb: (e: { data: unknown }) => void): void;
}

const electronPort = (process as unknown as { parentPort?: ParentPort }).parentPort;

function send(msg: WorkerToMain): void {
  if (electronPort) electronPort.postMessage(msg);
  else if (process.send && process.connected) process.send(msg);
}

/** Messages from main, parsed by the protocol's schema before use; one that is not is reported and ignored. */
function onParentMessage(cb: (msg: MainToWorker) => void): void {
  const receive = (raw: unknown) => {
    const read = readMessage(mainToWorkerSchema, raw);
    if (read.ok) cb(read.msg);
    else process.stderr.write(`circa worker: ignored a message that is not the protocol's (${read.problem})\n`);
  };
  if (electronPort) electronPort.on('message', (e) => receive(e.data));
  else process.on('message', receive);
}

/** An AbortController made only when a handler looks at its signal (most short jobs never do). */
class LazyAbort {
  private controller?: AbortController;
  get signal(): AbortSignal {
    return (this.controller ??= new AbortController()).signal;
  }
  get aborted(): boolean {
    return this.controller?.signal.aborted ?? false;
  }
  abort(reason: unknown): void {
    (this.controller ??= new AbortController()).abort(reason);
  }
}

const handlers = workerHandlers({ diagnostics: process.env.CIRCA_DIAGNOSTIC_JOBS === '1' });
const queue: JobAssignment[] = [];
let current: { job: JobAssignment; abort: LazyAbort } | null = null;
let draining = false;
const heapWatch = new HeapWatch((report) => send({ t: 'heap', ...report }));

/** Results wait here until the batch is done or a time slice ends, then go in one message. */
const outbox: JobResultMessage[] = [];
const SLICE_MS = 5;
const MAX_OUTBOX = 64;

function flushOutbox(): void {
  if (!outbox.length) return;
  if (outbox.length === 1) send(outbox[0]);
  else send({ t: 'results', results: outbox.splice(0) });
  outbox.length = 0;
}

async function runOne(job: JobAssignment): Promise<void> {
  const abort = new LazyAbort();
  current = { job, abort };
  let lastProgress = 0;
  const ctx = {
    jobId: job.jobId,
    attempt: job.attempt,
    get signal() {
      return abort.signal;
    },
    progress(fraction: number, message?: string) {
      const now = Date.now();
      if (now - lastProgress < 100 && fraction < 1) return;
      lastProgress = now;
      send({ t: 'progress', jobId: job.jobId, attempt: job.attempt, progress: fraction, message, heap: heapReport() });
    },
  };
  const started = performance.now();
  try {
    const handler = handlers[job.type];
    if (!handler) throw new PermanentJobError(`This worker has no handler for job type "${job.type}"`);
    const output = await handler(job.input as never, ctx);
    outbox.push({ t: 'result', jobId: job.jobId, attempt: job.attempt, ok: true, output, ms: performance.now() - started });
  } catch (err) {
    // An abort is the runtime's doing (cancel, timeout, lost lease): retryable, whatever was thrown.
    const error: SerializedJobError = abort.aborted
      ? { kind: 'retryable', message: `Aborted: ${String((abort.signal.reason as Error)?.message ?? abort.signal.reason)}` }
      : serializeJobError(err);
    outbox.push({ t: 'result', jobId: job.jobId, attempt: job.attempt, ok: false, error, ms: performance.now() - started });
  } finally {
    current = null;
  }
}

/**
 * Works through the queue one job at a time. Between short jobs it does not yield a macrotask
 * per job: results are collected and sent together at the end of each ~5 ms slice (or of the
 * queue), when it also yields so abort and ping messages are handled.
 */
async function drain(): Promise<void> {
  if (draining) return;
  draining = true;
  heapWatch.busy();
  try {
    let sliceStart = Date.now();
    while (queue.length) {
      await runOne(queue.shift()!);
      if (outbox.length >= MAX_OUTBOX || Date.now() - sliceStart >= SLICE_MS) {
        flushOutbox();
        await new Promise((resolve) => setImmediate(resolve));
        sliceStart = Date.now();
      }
    }
  } finally {
    draining = false;
    heapWatch.idle();
    flushOutbox();
  }
}

onParentMessage((msg) => {
  switch (msg.t) {
    case 'ping':
      send({ t: 'pong', seq: msg.seq, heap: heapReport() });
      return;
    case 'run':
      queue.push(...msg.jobs);
      void drain();
      return;
    case 'abort': {
      if (current && current.job.jobId === msg.jobId && current.job.attempt === msg.attempt) {
        current.abort.abort(new Error(msg.reason));
        return;
      }
      const i = queue.findIndex((j) => j.jobId === msg.jobId && j.attempt === msg.attempt);
      if (i >= 0) {
        queue.splice(i, 1);
        send({
          t: 'result',
          jobId: msg.jobId,
          attempt: msg.attempt,
          ok: false,
          error: { kind: 'retryable', message: `Aborted before it started: ${msg.reason}` },
        });
      }
      return;
    }
    case 'revoke': {
      // Given back only if it has not started: an idle worker will run it instead.
      const i = queue.findIndex((j) => j.jobId === msg.jobId && j.attempt === msg.attempt);
      if (i >= 0) queue.splice(i, 1);
      send({ t: 'revoked', jobId: msg.jobId, attempt: msg.attempt, ok: i >= 0 });
      return;
    }
    case 'shutdown':
      flushOutbox();
      process.exit(0);
  }
});

// Signals are for the runner, not for us: Ctrl-C in a terminal or a service manager's SIGTERM
// reach the whole process group, and the runner's clean shutdown (finish or release in-flight
// jobs) needs its workers alive until it says so. We still exit when the parent goes away.
if (!electronPort) {
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => {});
}

// Exit when the parent goes away (a forked child loses its IPC channel; a utilityProcess is
// reaped by Electron, and the ppid check covers a parent killed with SIGKILL).
process.on('disconnect', () => process.exit(0));
const parentPid = process.ppid;
setInterval(() => {
  if (process.ppid !== parentPid) process.exit(0);
}, 1000).unref();

send({ t: 'ready', pid: process.pid, types: Object.keys(handlers) });
