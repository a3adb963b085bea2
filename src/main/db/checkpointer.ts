/**
 * WAL checkpoints off main's thread. With SQLite's automatic checkpoints, the commit that
 * crosses the threshold copies the WAL back into the database file itself — tens of ms during
 * which main (and every UI request) waits. Instead main's connection turns automatic
 * checkpoints off and this thread, in main's process, runs PASSIVE checkpoints (they never
 * block readers or writers) every half second. It writes no data; main stays the only writer.
 *
 * PASSIVE alone never bounds the WAL under sustained writes: a checkpoint that a commit
 * overtakes never completes, so the WAL is never restarted and grows for as long as the work
 * goes on. So the thread also runs a TRUNCATE checkpoint (it copies what the PASSIVE pass left —
 * little — and empties the WAL file; it never waits: if a writer or a reader is busy it gives up
 * at once and tries again at the next tick, so it holds writers back only while it copies):
 *  - when writers pause (nothing was written since the previous tick), so an idle library is
 *    one file again;
 *  - when the WAL file passes WAL_LIMITS.softBytes.
 * If the thread dies, main's connection goes back to automatic checkpoints, and main itself
 * truncates a WAL that passes WAL_LIMITS.hardBytes (see open.ts).
 */
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';

export const WAL_LIMITS = {
  /** The thread truncates the WAL once it is this big, even while writes go on. */
  softBytes: 16 * 1024 * 1024,
  /** Main truncates it itself past this (the thread is dead or cannot keep up). */
  hardBytes: 64 * 1024 * 1024,
};

const THREAD_SOURCE = `
const fs = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
// No busy wait: a TRUNCATE checkpoint that waited would hold every writer back while it did.
const db = new Database(workerData.file, { nativeBinding: workerData.nativeBinding, timeout: 0 });
db.pragma('journal_size_limit = ' + workerData.softBytes);
const walFile = workerData.file + '-wal';
let lastLog = -1;
function walBytes() {
  try { return fs.statSync(walFile).size; } catch { return 0; }
}
function tick() {
  try {
    const pass = db.pragma('wal_checkpoint(PASSIVE)')[0];
    const idle = pass.log === lastLog && pass.log > 0;
    lastLog = pass.log;
    if (idle || walBytes() > workerData.softBytes) {
      const full = db.pragma('wal_checkpoint(TRUNCATE)')[0];
      if (!full.busy) lastLog = 0;
    }
  } catch { /* busy or locked: next time */ }
}
const timer = setInterval(tick, workerData.everyMs);
parentPort.on('message', (m) => {
  if (m === 'close') { clearInterval(timer); try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {} db.close(); parentPort.postMessage('closed'); }
});
`;

export interface Checkpointer {
  close(): Promise<void>;
}

export function startCheckpointer(opts: {
  file: string;
  nativeBinding?: string;
  everyMs?: number;
  onFailure(err: Error): void;
}): Checkpointer {
  const worker = new Worker(THREAD_SOURCE, {
    eval: true,
    workerData: {
      file: opts.file,
      nativeBinding: opts.nativeBinding,
      module: createRequire(import.meta.url).resolve('better-sqlite3'),
      everyMs: opts.everyMs ?? 500,
      softBytes: WAL_LIMITS.softBytes,
    },
  });
  worker.unref();
  let closing = false;
  worker.on('error', (err) => {
    if (!closing) opts.onFailure(err);
  });
  worker.on('exit', (code) => {
    if (!closing) opts.onFailure(new Error(`checkpoint thread exited (${code})`));
  });
  return {
    close() {
      if (closing) return Promise.resolve();
      closing = true;
      return new Promise<void>((resolve) => {
        const done = () => resolve();
        worker.once('message', done);
        worker.once('exit', done);
        worker.postMessage('close');
        setTimeout(() => void worker.terminate().then(done), 2000).unref();
      });
    },
  };
}
