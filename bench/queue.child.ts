/**
 * Child processes for bench/queue.ts (run with `node --import tsx`):
 *   plainjob <db>        one plainjob worker with a no-op processor, started on 'go'
 *   writer <db> <ms>     a "user" writing one settings row per write transaction, due every <ms>, the
 *                        way any Circa process writes to a library: the library opened as Circa opens
 *                        it (src/main/db/open.ts: WAL checkpoints on a thread of its own, none inside
 *                        its commits) and written through its write transactions (write-transaction.ts)
 * Each sends 'ready', waits for 'go', and on 'stop' reports its figures and exits.
 */
import Database from 'better-sqlite3';
import { better, defineQueue, defineWorker } from 'plainjob';
import { appPaths } from '../src/main/app-paths';
import { openDatabase } from '../src/main/db/open';

const [mode, dbFile, arg] = process.argv.slice(2);
const wall = () => performance.timeOrigin + performance.now();
const send = (m: unknown) => process.send!(m);
const silent = { error() {}, warn() {}, info() {}, debug() {} };

if (mode === 'plainjob') {
  const queue = defineQueue({ connection: better(new Database(dbFile)), logger: silent });
  let count = 0;
  let last = 0;
  const worker = defineWorker('bench', async () => {}, {
    queue,
    logger: silent,
    onCompleted: () => {
      count++;
      last = wall();
    },
  });
  process.on('message', async (m: { t: string }) => {
    if (m.t === 'go') void worker.start();
    if (m.t === 'stop') {
      await worker.stop();
      send({ t: 'report', count, last });
      queue.close();
      process.exit(0);
    }
  });
  send({ t: 'ready' });
} else if (mode === 'writer') {
  // Opened with a bare connection, as before, this process's commits ran SQLite's own automatic
  // checkpoints of the WAL the runner was filling (2–12 ms a commit): no Circa process does that.
  const library = openDatabase({ file: dbFile, migrationsFolder: appPaths().migrations });
  const db = library.sqlite;
  const upsert = db.prepare(
    'INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
  );
  const write = (k: number) => library.immediate(() => upsert.run('bench.userWrite', JSON.stringify({ k }), Date.now()));
  const every = Number(arg ?? 5);
  const latencies: number[] = [];
  let timer: NodeJS.Timeout | undefined;
  let writing = false;
  process.on('message', (m: { t: string }) => {
    if (m.t === 'go') {
      // A fixed schedule (t0 + k·every): a write kept waiting delays every write due meanwhile, and each counts.
      writing = true;
      const t0 = performance.now() + every;
      let k = 0;
      const tick = () => {
        if (!writing) return;
        const now = performance.now();
        while (t0 + k * every <= now) {
          write(k);
          latencies.push(performance.now() - (t0 + k * every));
          k++;
        }
        timer = setTimeout(tick, Math.max(0, t0 + k * every - performance.now()));
      };
      timer = setTimeout(tick, every);
    }
    if (m.t === 'stop') {
      writing = false;
      clearTimeout(timer);
      send({ t: 'report', latencies });
      void library.close().then(() => process.exit(0));
    }
  });
  send({ t: 'ready' });
} else {
  console.error(`unknown mode ${mode}`);
  process.exit(2);
}
