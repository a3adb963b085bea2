/**
 * An in-process stand-in for a worker process, for tests of the runtime's parts where a real
 * process is not the point. It speaks the same protocol (src/shared/worker-protocol.ts): it runs
 * the jobs it is handed one at a time, in order, by a behaviour per job type, answers pings,
 * honours aborts and gives back jobs it has not started.
 */
import type { JobAssignment, MainToWorker, WorkerToMain } from '../../src/shared/worker-protocol';
import type { SpawnWorker, WorkerExit, WorkerProcess } from '../../src/main/jobs/worker-process';

/** What a fake handler does with a job: answer after `ms`, fail, or never answer. */
export type FakeBehaviour =
  | { kind: 'succeed'; ms?: number | ((job: JobAssignment) => number); output?: unknown }
  | { kind: 'fail'; ms?: number; error: { kind: 'retryable' | 'permanent'; message: string } }
  | { kind: 'hang' };

export interface FakeWorker extends WorkerProcess {
  readonly name: string;
  /** Every job it started, in order. */
  readonly started: JobAssignment[];
  /** Every job it was handed (started or not). */
  readonly received: JobAssignment[];
  /** Sends main anything at all (a message that is not the protocol's). */
  say(raw: unknown): void;
  /** Ends the process as its adapter would report it. */
  exit(exit: Partial<WorkerExit> & Pick<WorkerExit, 'kind'>): void;
  killed: boolean;
}

export interface FakeSpawner {
  spawn: SpawnWorker;
  workers: FakeWorker[];
  /** How jobs of each type behave (default: succeed at once with `{ pid: 1 }`). */
  behave(type: string, b: FakeBehaviour): void;
  /** Messages the runtime sent, per worker name. */
  sent: { name: string; msg: MainToWorker }[];
  /** Workers answer pings unless this is false (a hung process). */
  answerPings: boolean;
  /** The next spawn throws (a process that cannot be started). */
  failNextSpawn: boolean;
  /** Workers say `ready` (default true); false: they start but never get ready. */
  becomeReady: boolean;
}

export function fakeSpawner(): FakeSpawner {
  const behaviours = new Map<string, FakeBehaviour>();
  const f: FakeSpawner = {
    workers: [],
    sent: [],
    answerPings: true,
    failNextSpawn: false,
    becomeReady: true,
    behave: (type, b) => void behaviours.set(type, b),
    spawn: ({ name }) => {
      if (f.failNextSpawn) {
        f.failNextSpawn = false;
        throw new Error('spawn EAGAIN');
      }
      let onMessage: (m: unknown) => void = () => {};
      const exitListeners: ((e: WorkerExit) => void)[] = [];
      const queue: JobAssignment[] = [];
      let current: { job: JobAssignment; timer?: NodeJS.Timeout; done: boolean } | null = null;
      let ended = false;
      const post = (m: unknown) => setImmediate(() => !ended && onMessage(m));
      const finish = (job: JobAssignment, m: WorkerToMain) => {
        if (current?.job !== job || current.done) return;
        current.done = true;
        current = null;
        post(m);
        setImmediate(next);
      };
      const next = () => {
        if (ended || current || !queue.length) return;
        const job = queue.shift()!;
        worker.started.push(job);
        current = { job, done: false };
        const b = behaviours.get(job.type) ?? { kind: 'succeed' };
        if (b.kind === 'hang') return;
        const ms = typeof b.ms === 'function' ? b.ms(job) : (b.ms ?? 0);
        // Like the real worker, each result says how long its handler ran.
        const answer = (): WorkerToMain =>
          b.kind === 'succeed'
            ? { t: 'result', jobId: job.jobId, attempt: job.attempt, ok: true, output: b.output ?? { pid: 1 }, ms }
            : { t: 'result', jobId: job.jobId, attempt: job.attempt, ok: false, error: b.error, ms };
        current.timer = setTimeout(() => finish(job, answer()), ms);
      };
      const worker: FakeWorker = {
        name,
        pid: 1000 + f.workers.length,
        started: [],
        received: [],
        killed: false,
        send(msg) {
          if (ended) return;
          f.sent.push({ name, msg });
          switch (msg.t) {
            case 'ping':
              if (f.answerPings) post({ t: 'pong', seq: msg.seq });
              return;
            case 'run':
              worker.received.push(...msg.jobs);
              queue.push(...msg.jobs);
              setImmediate(next);
              return;
            case 'abort':
              if (current && current.job.jobId === msg.jobId) {
                const b = behaviours.get(current.job.type);
                if (b?.kind === 'hang') return; // ignores its signal
                clearTimeout(current.timer);
                const job = current.job;
                finish(job, {
                  t: 'result',
                  jobId: job.jobId,
                  attempt: job.attempt,
                  ok: false,
                  error: { kind: 'retryable', message: `Aborted: ${msg.reason}` },
                });
              }
              return;
            case 'revoke': {
              const i = queue.findIndex((j) => j.jobId === msg.jobId && j.attempt === msg.attempt);
              if (i >= 0) queue.splice(i, 1);
              post({ t: 'revoked', jobId: msg.jobId, attempt: msg.attempt, ok: i >= 0 });
              return;
            }
            case 'shutdown':
              worker.exit({ kind: 'exited', code: 0 });
          }
        },
        onMessage(cb) {
          onMessage = cb;
        },
        say: (raw) => post(raw),
        onExit(cb) {
          exitListeners.push(cb);
        },
        kill() {
          worker.killed = true;
          worker.exit({ kind: 'crashed', signal: 'SIGKILL' });
        },
        exit(e) {
          if (ended) return;
          ended = true;
          clearTimeout(current?.timer);
          const exit: WorkerExit = { code: null, signal: null, stderrTail: '', ...e };
          setImmediate(() => exitListeners.forEach((cb) => cb(exit)));
        },
      };
      f.workers.push(worker);
      if (f.becomeReady) post({ t: 'ready', pid: worker.pid!, types: [] });
      return worker;
    },
  };
  return f;
}
