/** The snapshot thread: a consistent copy while main keeps writing, and nothing left when it is stopped. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { takeSnapshot } from '../../src/main/backup/snapshot';
import { inspectLibraryFile } from '../../src/shared/node/library-file';
import type { Core } from '../../src/main/core/core';
import { openTestCore, tempDir } from '../support/core';
import { seedPhotos } from '../support/seed';

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

describe('takeSnapshot', () => {
  it('copies exactly what it counted while main goes on writing', async () => {
    core = openTestCore({ runJobs: false });
    seedPhotos(core, 5_000);
    const dest = path.join(tempDir(), 'copy.db');
    const insert = core.db.sqlite.prepare(
      `INSERT INTO photos (sha256, path, filename, size, imported_at, updated_at) VALUES (?, ?, 'late.jpg', 1, 0, 0)`,
    );
    let written = 0;
    let writing = true;
    const writer = (async () => {
      while (writing) {
        core!.db.immediate(() => insert.run(`late-${written}-`.padEnd(64, 'x'), `/late/${written}`));
        written++;
        await new Promise((r) => setImmediate(r));
      }
    })();
    const snap = await takeSnapshot({ source: core.paths.dbFile, dest, pagesPerStep: 64 });
    writing = false;
    await writer;
    expect(written).toBeGreaterThan(0);
    const report = inspectLibraryFile(dest);
    expect(report.counts).toEqual(snap.counts);
    expect(snap.counts.photos).toBeGreaterThanOrEqual(5_000);
    expect(report.schemaVersion).toBe(core.db.migration.schemaVersion);
    // One self-contained file: no WAL beside it.
    expect(fs.existsSync(`${dest}-wal`)).toBe(false);
  });

  it('a stopped snapshot leaves no file behind', async () => {
    core = openTestCore({ runJobs: false });
    seedPhotos(core, 5_000);
    const dest = path.join(tempDir(), 'copy.db');
    const abort = new AbortController();
    const p = takeSnapshot({
      source: core.paths.dbFile,
      dest,
      signal: abort.signal,
      pagesPerStep: 1,
      onProgress: () => abort.abort(),
    });
    await expect(p).rejects.toThrow(/stopped/);
    expect(fs.existsSync(dest)).toBe(false);
  });

  it('says why when the destination cannot be written', async () => {
    core = openTestCore({ runJobs: false });
    const dest = path.join(tempDir(), 'no-such-folder', 'copy.db');
    await expect(takeSnapshot({ source: core.paths.dbFile, dest })).rejects.toThrow(/directory does not exist/);
  });
});
