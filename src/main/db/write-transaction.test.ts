import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/core';
import { writeTransactions } from './write-transaction';

/**
 * Another process on the same library: it takes the write lock in a loop, holding it `holdMs` and
 * letting go for `gapMs` (both spun, not slept, so the gaps are as short as a busy runner's), and
 * counts its transactions in `other`. It prints `ready` once it holds the lock the first time.
 */
function otherWriter(file: string, seconds: number, holdMs: number, gapMs: number): Promise<ChildProcess> {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(${JSON.stringify(file)}, { timeout: 60000 });
    db.pragma('journal_mode = WAL');
    const bump = db.prepare("UPDATE other SET n = n + 1");
    const spin = (ms) => { const end = performance.now() + ms; while (performance.now() < end); };
    const end = performance.now() + ${seconds * 1000};
    let first = true;
    while (performance.now() < end) {
      db.exec('BEGIN IMMEDIATE');
      bump.run();
      if (first) { process.stdout.write('ready\\n'); first = false; }
      spin(${holdMs});
      db.exec('COMMIT');
      spin(${gapMs});
    }
    db.prepare("UPDATE other SET finished = 1").run();
    db.close();
  `;
  const child = spawn(process.execPath, ['-e', script], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', () => resolve(child));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the other writer exited early (${code})`)));
  });
}

function library(): Database.Database {
  const db = new Database(path.join(tempDir('circa-write-lock-'), 'lib.db'), { timeout: 5000 });
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE other (n INTEGER NOT NULL, finished INTEGER NOT NULL); INSERT INTO other VALUES (0, 0)');
  db.exec('CREATE TABLE mine (k INTEGER PRIMARY KEY, seen INTEGER NOT NULL, other_finished INTEGER NOT NULL)');
  return db;
}

const children: ChildProcess[] = [];
const dbs: Database.Database[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  for (const d of dbs.splice(0)) d.close();
});

describe('writeTransactions', () => {
  it('commits what the function wrote and returns its value; a throw rolls everything back', () => {
    const db = library();
    dbs.push(db);
    const { immediate } = writeTransactions(db);
    expect(immediate(() => db.prepare('INSERT INTO mine VALUES (1, 0, 0)').run().changes)).toBe(1);
    expect(() =>
      immediate(() => {
        db.prepare('INSERT INTO mine VALUES (2, 0, 0)').run();
        throw new Error('apply failed');
      }),
    ).toThrow('apply failed');
    expect(db.inTransaction).toBe(false);
    expect(db.prepare('SELECT k FROM mine').pluck().all()).toEqual([1]);
  });

  it('runs a nested call as a savepoint: its failure undoes only its own writes', () => {
    const db = library();
    dbs.push(db);
    const { immediate } = writeTransactions(db);
    immediate(() => {
      db.prepare('INSERT INTO mine VALUES (1, 0, 0)').run();
      expect(() =>
        immediate(() => {
          db.prepare('INSERT INTO mine VALUES (2, 0, 0)').run();
          throw new Error('inner');
        }),
      ).toThrow('inner');
      db.prepare('INSERT INTO mine VALUES (3, 0, 0)').run();
    });
    expect(db.prepare('SELECT k FROM mine ORDER BY k').pluck().all()).toEqual([1, 3]);
  });

  it('gets the lock in the short gaps of another process that writes most of the time', async () => {
    const db = library();
    dbs.push(db);
    db.pragma('busy_timeout = 30000');
    const { immediate } = writeTransactions(db);
    // The other process holds the lock 93 % of the time for 10 s. Each write here waits until it
    // has written again (so it is writing, not sleeping in its own busy handler), then takes the
    // lock. SQLite's busy handler, which sleeps up to 100 ms between tries, needed about half a
    // second per write like this; polling finds a gap within a few of the other's transactions, so
    // all 40 writes land while it is still writing.
    const other = await otherWriter(db.name, 10, 4, 0.3);
    children.push(other);
    const read = db.prepare('SELECT n, finished FROM other');
    const insert = db.prepare('INSERT INTO mine VALUES (?, ?, ?)');
    let seen = 0;
    for (let k = 0; k < 40; k++) {
      for (;;) {
        const o = read.get() as { n: number; finished: number };
        if (o.n > seen + 1 || o.finished) break;
        await new Promise((r) => setTimeout(r, 1));
      }
      immediate(() => {
        const o = read.get() as { n: number; finished: number };
        insert.run(k, o.n, o.finished);
        seen = o.n;
      });
    }
    const rows = db.prepare('SELECT seen, other_finished FROM mine ORDER BY k').all() as {
      seen: number;
      other_finished: number;
    }[];
    expect(rows).toHaveLength(40);
    expect(rows.filter((r) => r.other_finished === 1)).toEqual([]);
  }, 60_000);

  it('gives up at the deadline with SQLite’s own busy error, leaving no transaction open', async () => {
    const db = library();
    dbs.push(db);
    const { immediate } = writeTransactions(db);
    db.pragma('busy_timeout = 300'); // the connection's timeout as it is when the write starts
    const other = await otherWriter(db.name, 5, 5000, 0);
    children.push(other);
    const t0 = performance.now();
    let error: unknown;
    try {
      immediate(() => db.prepare('INSERT INTO mine VALUES (1, 0, 0)').run());
    } catch (err) {
      error = err;
    }
    expect((error as { code?: string })?.code).toBe('SQLITE_BUSY');
    expect(performance.now() - t0).toBeGreaterThanOrEqual(300);
    expect(db.inTransaction).toBe(false);
    other.kill('SIGKILL');
    await new Promise((r) => other.once('exit', r));
    // The connection still waits for the lock the usual way for everything else.
    expect(db.pragma('busy_timeout', { simple: true })).toBe(300);
  }, 30_000);
});
