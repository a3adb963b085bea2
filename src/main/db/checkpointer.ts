/**
 * WAL checkpoints off main's thread. With SQLite's automatic checkpoints, the commit that
 * crosses the threshold copies the WAL back into the database file itself — tens of ms during
 * which main (and every UI request) waits. Instead main's connection turns automatic
 * checkpoints off and this thread, in main's process, runs PASSIVE checkpoints (they never
 * block readers or writers): every half second, every 50 ms while writes go on, every 5 ms while
 * it is behind.
 *
 * PASSIVE alone never bounds the WAL under sustained writes: SQLite restarts the WAL from its
 * start only when a write begins at a moment when every frame has been copied, and a busy writer
 * seldom does. So the thread makes that moment itself (see restart() below) once the WAL holds
 * WAL_LIMITS.restartFrames; the copying happens outside the write lock, which it holds only for
 * a one-page write. When writers pause it runs a TRUNCATE checkpoint, so an idle library is one
 * file again. It never waits for a lock: a TRUNCATE that waited, or that had much left to copy,
 * held main's writes back for tens of ms.
 * If the thread dies, main's connection goes back to automatic checkpoints, and main itself
 * truncates a WAL that passes WAL_LIMITS.hardBytes (see open.ts).
 */
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';

export const WAL_LIMITS = {
  /** A restarted WAL file is cut back to this size (journal_size_limit). */
  softBytes: 16 * 1024 * 1024,
  /** The thread restarts the WAL once it holds this many frames (4 MB of 4 KB pages). */
  restartFrames: 1024,
  /**
   * Past this many frames (8 MB) it restarts the WAL even if it must hold the write lock to: the
   * file then stays at softBytes.
   */
  forceFrames: 2048,
  /** Main truncates it itself past this (the thread is dead or cannot keep up). */
  hardBytes: 64 * 1024 * 1024,
};

const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
// No busy wait: a checkpoint or restart that waited for the lock would hold main's writes back.
const db = new Database(workerData.file, { nativeBinding: workerData.nativeBinding, timeout: 0 });
db.pragma('journal_size_limit = ' + workerData.softBytes);
const pause = new Int32Array(new SharedArrayBuffer(4));
const sleep = (ms) => Atomics.wait(pause, 0, 0, ms);
const passive = () => db.pragma('wal_checkpoint(PASSIVE)')[0];
const dataVersion = () => db.pragma('data_version', { simple: true });

// PASSIVE passes until one finds nothing new: each copies only what was committed during the
// previous one (a pass reports the frames that were there when it began), so a few converge even
// under a steady writer.
function catchUp(first) {
  let prev = first;
  for (let i = 0; i < 16 && prev.log > 0; i++) {
    const pass = passive();
    if (pass.log <= prev.log) return pass;
    prev = pass;
  }
  return prev;
}

// Restarting the WAL from its start needs a moment when every frame is copied and a write
// begins: SQLite then writes from the start and cuts the file to journal_size_limit. A busy
// writer seldom begins in that instant, so the WAL grew for as long as the work went on. Here
// the thread makes the moment: it takes the write lock (never waiting for it) right after a
// pass that left nothing to copy, checks (data_version) that nothing was committed since, and
// rewrites user_version with its own value — a one-page write that changes no data and makes
// SQLite restart the WAL. The lock is held for that one page; the copying, with its fsyncs,
// happened before, outside it.
function restart() {
  for (let i = 0; i < 5; i++) {
    const before = dataVersion();
    const pass = passive();
    if (pass.log <= 0) return true;
    if (pass.checkpointed >= pass.log) {
      try {
        db.exec('BEGIN IMMEDIATE');
      } catch {
        sleep(0.2);
        continue;
      }
      let done = false;
      try {
        if (dataVersion() === before) {
          db.pragma('user_version = ' + db.pragma('user_version', { simple: true }));
          done = true;
        }
      } finally {
        db.exec(done ? 'COMMIT' : 'ROLLBACK');
      }
      if (done) return true;
    }
    sleep(0.2);
  }
  return false;
}

// The writer left no such moment before the WAL reached forceFrames: copy the little left with
// the write lock held (a few ms for main to wait, at most once per forceFrames), so the next
// write restarts the WAL.
function forceRestart() {
  for (let i = 0; i < 20; i++) {
    if (!db.pragma('wal_checkpoint(RESTART)')[0].busy) return true;
    sleep(0.2);
  }
  return false;
}

let lastFrames = -1;
let timer;
function tick() {
  let writing = false;
  let behind = false;
  try {
    // A WAL already past forceFrames is restarted after one pass: against a writer adding to it
    // nearly as fast as passes copy it (test/db/wal-restart.test.ts writes ~300 MB a second), the
    // passes went on for 150–230 ms while the WAL grew past 32 MB.
    const first = passive();
    const pass = first.log >= workerData.forceFrames ? first : catchUp(first);
    writing = pass.log !== lastFrames;
    lastFrames = pass.log;
    if (!writing && pass.log > 0) {
      // Writers have paused: fold the WAL back so an idle library is one file again.
      if (!db.pragma('wal_checkpoint(TRUNCATE)')[0].busy) lastFrames = 0;
    } else if (pass.log >= workerData.forceFrames ? forceRestart() : pass.log >= workerData.restartFrames && restart()) {
      lastFrames = -1;
    }
    // Soon again when a pass was refused (a writer's read held the WAL's first read lock for a
    // moment) or the WAL reached restartFrames since the last look: 50 ms more of a fast writer
    // took the WAL past 32 MB.
    behind = pass.log < 0 || pass.log >= workerData.restartFrames;
  } catch { /* busy or locked: next time */ }
  // Soon again while writes go on (a drain adds megabytes a second to the WAL), seldom when idle.
  timer = setTimeout(tick, behind ? 5 : writing ? workerData.busyEveryMs : workerData.everyMs);
}
timer = setTimeout(tick, workerData.everyMs);
parentPort.on('message', (m) => {
  if (m === 'close') { clearTimeout(timer); try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {} db.close(); parentPort.postMessage('closed'); }
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
      busyEveryMs: 50,
      restartFrames: WAL_LIMITS.restartFrames,
      forceFrames: WAL_LIMITS.forceFrames,
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
