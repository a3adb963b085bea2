/**
 * The WAL is restarted from its start while a writer keeps committing, the way the job runner
 * does during a drain (one short write transaction per turn of main's event loop). SQLite restarts a WAL only when a write begins at a moment when every frame has been
 * copied back; a busy writer seldom begins in that instant, and a TRUNCATE checkpoint that does
 * not wait for the lock seldom gets it. So the WAL used to grow past 64 MB during a drain and main
 * then truncated it on its own thread (70–90 ms pauses of every user request).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appPaths } from '../../src/main/app-paths';
import { WAL_LIMITS } from '../../src/main/db/checkpointer';
import { openDatabase } from '../../src/main/db/open';
import { tempDir } from '../support/core';

describe('the WAL under a writer that commits on every turn of the event loop', () => {
  it('is restarted while the writes go on, so the file stays near journal_size_limit', async () => {
    const file = path.join(tempDir('circa-wal-restart-'), 'library.db');
    const db = openDatabase({ file, migrationsFolder: appPaths().migrations });
    const wal = `${file}-wal`;
    const walSize = () => (fs.existsSync(wal) ? fs.statSync(wal).size : 0);
    try {
      db.sqlite.exec('CREATE TABLE churn (id INTEGER PRIMARY KEY, body BLOB)');
      const put = db.sqlite.prepare('INSERT OR REPLACE INTO churn (id, body) VALUES (?, ?)');
      const body = Buffer.alloc(3000, 7);
      const commitsPer = (mb: number) => Math.ceil((mb * 1024 * 1024) / (2 * 4096)); // two pages a commit
      let i = 0;
      const commit = async () => {
        db.immediate(() => put.run(i % 500, body));
        i++;
        // One transaction per turn of the event loop, as the job runner commits.
        await new Promise((r) => setImmediate(r));
      };
      // Until the thread has noticed the writes (it looks every half second while the library is
      // idle) and restarted the WAL once. A restart rewrites the WAL header's checkpoint sequence
      // number and salts (bytes 12–23); the file itself may not shrink if it never grew past
      // journal_size_limit.
      const header = () => {
        try {
          const fd = fs.openSync(wal, 'r');
          try {
            const b = Buffer.alloc(12);
            fs.readSync(fd, b, 0, 12, 12);
            return b.toString('hex');
          } finally {
            fs.closeSync(fd);
          }
        } catch {
          return '';
        }
      };
      // Some writes first: a TRUNCATE of the idle library just opened also rewrites the header.
      while (i < commitsPer(4)) await commit();
      const first = header();
      let restarted = false;
      while (!restarted && i < commitsPer(512)) {
        await commit();
        restarted = header() !== first;
      }
      expect(restarted, 'the WAL was restarted while the writer went on').toBe(true);
      // Then 128 MB more of frames, restarted again and again: every ~16 MB (journal_size_limit),
      // 6–9 times, with the file at 16.8 MB in 25 runs of this file alone. When the thread only
      // tried a TRUNCATE checkpoint that did not wait for the lock, the file reached 37–67 MB here
      // and main's own guard truncated it past hardBytes, on main's thread (70–90 ms pauses).
      // Beside the rest of the suite, a slow pass once let this writer (~300 MB/s, far beyond a
      // drain's 10–20) take the file to 35 MB, and one run alone of 45 restarted only twice: so what
      // is asserted is that the thread keeps restarting it and main's guard is never needed.
      let peak = 0;
      let restarts = 0;
      let last = header();
      for (const end = i + commitsPer(128); i < end;) {
        await commit();
        peak = Math.max(peak, walSize());
        const now = header();
        if (now !== last) restarts++;
        last = now;
      }
      expect(restarts, 'restarts during 128 MB of writes').toBeGreaterThanOrEqual(2);
      expect(peak, `WAL file peak ${(peak / 1e6).toFixed(1)} MB`).toBeLessThan(WAL_LIMITS.hardBytes);
    } finally {
      await db.close();
    }
  }, 120_000);
});
