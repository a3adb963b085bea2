/**
 * The snapshot of a backup, taken off main's thread. Main owns the library, but a thread of main's
 * process (like the WAL checkpointer) may hold a second, reading connection: it opens a read
 * transaction — a fixed view of the library, while main goes on writing (WAL) — counts the rows in
 * that view and copies its pages with SQLite's online backup, within the same transaction, so the
 * copy holds exactly what was counted. Main's thread only posts messages.
 *
 * Why not on main's connection: `VACUUM INTO` is one statement that blocks main's thread for the
 * whole copy (seconds for a large library), and better-sqlite3's `db.backup()` on main's
 * connection steps on main's thread and restarts whenever another process (a headless runner)
 * writes. See `npm run bench -- export` for the figures.
 *
 * The copy is then switched to rollback-journal mode, so a backup is one self-contained file.
 */
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { COUNTED_TABLES, type BackupCounts } from '../../shared/backup/manifest';

const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
let stop = false;
parentPort.on('message', (m) => { if (m === 'abort') stop = true; });
(async () => {
  const src = new Database(workerData.source, { nativeBinding: workerData.nativeBinding, timeout: 5000 });
  try {
    src.exec('BEGIN');
    const counts = {};
    for (const t of workerData.tables) counts[t] = src.prepare('SELECT count(*) FROM ' + t).pluck().get();
    const schemaVersion = src.prepare('SELECT count(*) FROM __drizzle_migrations').pluck().get();
    await src.backup(workerData.dest, {
      progress: ({ totalPages, remainingPages }) => {
        if (stop) throw new Error('aborted');
        parentPort.postMessage({ t: 'progress', done: totalPages - remainingPages, total: totalPages });
        return workerData.pagesPerStep;
      },
    });
    src.exec('COMMIT');
    src.close();
    const copy = new Database(workerData.dest, { nativeBinding: workerData.nativeBinding });
    copy.pragma('journal_mode = DELETE');
    copy.close();
    parentPort.postMessage({ t: 'done', counts, schemaVersion });
  } catch (err) {
    try { src.close(); } catch {}
    parentPort.postMessage({ t: 'error', message: err && err.message ? err.message : String(err), code: err && err.code });
  }
})();
`;

export interface Snapshot {
  counts: BackupCounts;
  schemaVersion: number;
}

export class SnapshotError extends Error {
  override readonly name = 'SnapshotError';
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

/**
 * Copies the library `source` to `dest` (a new file) as one consistent snapshot. Rejects with a
 * SnapshotError (and leaves no `dest`) when the copy fails or `signal` aborts it.
 */
export function takeSnapshot(opts: {
  source: string;
  dest: string;
  nativeBinding?: string;
  signal?: AbortSignal;
  onProgress?(fraction: number): void;
  /** Pages copied per step (4 KB each): between steps the thread notices an abort. */
  pagesPerStep?: number;
}): Promise<Snapshot> {
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) return reject(new SnapshotError('The backup was stopped before it started'));
    const worker = new Worker(THREAD_SOURCE, {
      eval: true,
      workerData: {
        source: opts.source,
        dest: opts.dest,
        nativeBinding: opts.nativeBinding,
        module: createRequire(import.meta.url).resolve('better-sqlite3'),
        tables: COUNTED_TABLES,
        pagesPerStep: opts.pagesPerStep ?? 2048,
      },
    });
    let settled = false;
    const finish = (err: SnapshotError | null, value?: Snapshot) => {
      if (settled) return;
      settled = true;
      opts.signal?.removeEventListener('abort', onAbort);
      clearTimeout(killTimer);
      if (err) {
        fs.rmSync(opts.dest, { force: true });
        fs.rmSync(`${opts.dest}-journal`, { force: true });
        reject(err);
      } else resolve(value!);
      void worker.terminate();
    };
    let killTimer: NodeJS.Timeout | undefined;
    const onAbort = () => {
      worker.postMessage('abort');
      // A step that does not end (a stuck disk) must not keep the job: the thread is terminated.
      killTimer = setTimeout(() => finish(new SnapshotError('The backup was stopped')), 2000);
      killTimer.unref();
    };
    opts.signal?.addEventListener('abort', onAbort);
    worker.on(
      'message',
      (m: {
        t: string;
        done?: number;
        total?: number;
        counts?: BackupCounts;
        schemaVersion?: number;
        message?: string;
        code?: string;
      }) => {
        if (m.t === 'progress' && m.total) opts.onProgress?.(m.done! / m.total);
        else if (m.t === 'done') finish(null, { counts: m.counts!, schemaVersion: m.schemaVersion! });
        else if (m.t === 'error')
          finish(opts.signal?.aborted ? new SnapshotError('The backup was stopped') : new SnapshotError(m.message!, m.code));
      },
    );
    worker.on('error', (err) => finish(new SnapshotError(`The snapshot thread failed: ${err.message}`)));
    worker.on('exit', (code) => finish(new SnapshotError(`The snapshot thread exited (${code}) before the copy was complete`)));
  });
}
