/**
 * WAL checkpoints off main's thread. With SQLite's automatic checkpoints, the commit that
 * crosses the threshold copies the WAL back into the database file itself — tens of ms during
 * which main (and every UI request) waits. Instead main's connection turns automatic
 * checkpoints off and this thread, in main's process, runs PASSIVE checkpoints (they never
 * block readers or writers) every half second. It writes no data; main stays the only writer.
 * If the thread dies, main's connection goes back to automatic checkpoints.
 */
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';

const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file, { nativeBinding: workerData.nativeBinding, timeout: 1000 });
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* busy: next time */ }
}, workerData.everyMs);
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
