/**
 * A file over the size limit is refused by the import from its size, before it is hashed: a
 * 2 GiB file named .jpg used to be read whole (and then refused by its metadata job).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { openTestCore, tempDir, waitFor } from '../support/core';

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

/** Bytes this process has read through read(2) and friends so far (Linux's /proc/self/io). */
const bytesReadByThisProcess = () => Number(/rchar: (\d+)/.exec(fs.readFileSync('/proc/self/io', 'utf8'))![1]);

describe('import size limit', () => {
  it('refuses a sparse 2 GiB .jpg as too large without reading it, and adds no photo for it', async () => {
    const dir = tempDir('circa-import-size-');
    const huge = path.join(dir, 'scan.jpg');
    fs.closeSync(fs.openSync(huge, 'w'));
    fs.truncateSync(huge, 2 * 1024 ** 3); // sparse: 2 GiB to read, no disk space used
    core = openTestCore();
    const c = core;
    const readBefore = bytesReadByThisProcess();
    const { id } = c.importer.start([dir]);
    const finished = () =>
      c.importer.status()?.id === id && c.importer.status()?.status !== 'running' ? c.importer.status() : null;
    const done = await waitFor(finished, 60_000, 'import');
    expect(done.errors).toEqual([{ path: huge, message: 'File too large: 2 GB exceeds the 1.5 GB limit' }]);
    expect(done.failed).toBe(1);
    expect(c.photos.list({ sort: 'imported', filter: 'all', limit: 10 }).total).toBe(0);
    // Not hashed: the import read far less than the file (a few directory and database reads).
    expect(bytesReadByThisProcess() - readBefore).toBeLessThan(64 * 1024 * 1024);
  });
});
