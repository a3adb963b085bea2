/**
 * Issue 32, item 12, through the call the renderer makes: a relative path is refused with the
 * path it most likely meant (it used to be read from the server's own working folder), and a
 * file:// URL imports the folder it names.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import type { ImportProgress } from '../../src/shared/contract';
import { openTestCore, tempDir, waitFor } from '../support/core';
import { writeTestJpeg } from '../support/import-settled';

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

describe('paths typed for an import', () => {
  it('a relative path is refused, naming the full path; nothing is imported from the working folder', async () => {
    core = openTestCore({ runJobs: false });
    const r = await core.dispatch('photos.import', { paths: ['photos'] });
    expect(r).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringContaining('"photos" is not a full path') },
    });
    expect(core.importer.status()).toBeNull();
  });

  it('a file:// URL imports the folder it names', async () => {
    const dir = tempDir('circa-import-url-');
    const sub = path.join(dir, 'Box 3 (Großmutter)');
    fs.mkdirSync(sub);
    await writeTestJpeg(path.join(sub, 'scan-001.jpg'), '#996633');
    core = openTestCore({ runJobs: false });
    const url = pathToFileURL(sub).href;
    expect(url).toMatch(/^file:\/\/\/.*Box%203/);
    const r = await core.dispatch('photos.import', { paths: [url] });
    expect(r.ok).toBe(true);
    const id = (r as { value: ImportProgress }).value.id;
    const done = await waitFor(() => {
      const s = core!.importer.status();
      return s && s.id === id && s.status !== 'running' ? s : undefined;
    });
    expect(done.status).toBe('done');
    expect(done.added).toBe(1);
    expect(core.photos.list({ sort: 'imported', filter: 'all', limit: 10 }).items.map((p) => p.path)).toEqual([
      path.join(sub, 'scan-001.jpg'),
    ]);
  });
});
