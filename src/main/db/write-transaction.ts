/**
 * Write transactions that wait for SQLite's write lock by polling it, not through the busy handler.
 *
 * Two Circa processes can share a library (the app and a headless runner). While one drains jobs
 * it holds the write lock most of the time, with gaps of a millisecond or less between its
 * transactions. SQLite's busy handler retries after 1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50 ms
 * and then every 100 ms: it wakes at moments unrelated to those gaps, so a user's one-row write
 * in the other process waited for a second and more. Here BEGIN IMMEDIATE is tried with no busy
 * handler, and retried every 0.1 ms for the first 50 ms (backing off to 1 ms within that had let
 * the other writer's gaps go by: p99 86 ms against 27–38 ms in the queue bench's drain), then at
 * most every 1 ms, so a long wait costs little CPU. A lock still held after the connection's busy
 * timeout is SQLite's own SQLITE_BUSY error, which callers already treat as the environment
 * failing (retried).
 */
import type Database from 'better-sqlite3';

const FAST_POLL_MS = 0.1;
const FAST_POLL_FOR_MS = 50;
const MAX_POLL_MS = 1;

export interface WriteTransactions {
  /** Runs `fn` in a BEGIN IMMEDIATE transaction; nested calls become savepoints. */
  immediate<T>(fn: () => T): T;
}

export function writeTransactions(sqlite: Database.Database): WriteTransactions {
  const begin = sqlite.prepare('BEGIN IMMEDIATE');
  const commit = sqlite.prepare('COMMIT');
  const rollback = sqlite.prepare('ROLLBACK');
  const sleeper = new Int32Array(new SharedArrayBuffer(4));

  const acquire = () => {
    // The connection's busy timeout is the deadline, and everything but BEGIN keeps it. It is read
    // each time (a caller may change it), and a prepared PRAGMA busy_timeout takes effect when it
    // is prepared, not when it runs: these pragmas are compiled each time, a few µs in all.
    const own = Number(sqlite.pragma('busy_timeout', { simple: true }));
    const started = performance.now();
    const deadline = started + own;
    let pause = FAST_POLL_MS;
    sqlite.exec('PRAGMA busy_timeout = 0');
    try {
      for (;;) {
        try {
          begin.run();
          return;
        } catch (err) {
          if (!isBusy(err) || performance.now() >= deadline) throw err;
        }
        Atomics.wait(sleeper, 0, 0, pause);
        if (performance.now() - started > FAST_POLL_FOR_MS) pause = Math.min(MAX_POLL_MS, pause * 1.5);
      }
    } finally {
      // Reads keep SQLite's own wait (a checkpoint resetting the WAL is brief).
      sqlite.exec(`PRAGMA busy_timeout = ${own}`);
    }
  };

  return {
    immediate<T>(fn: () => T): T {
      if (sqlite.inTransaction) return sqlite.transaction(fn)();
      acquire();
      let result: T;
      try {
        result = fn();
        commit.run();
      } catch (err) {
        // A failed COMMIT (a full disk) leaves the transaction open; a statement error may not.
        if (sqlite.inTransaction) rollback.run();
        throw err;
      }
      return result;
    },
  };
}

function isBusy(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}
