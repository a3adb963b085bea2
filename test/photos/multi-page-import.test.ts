/**
 * A multi-page TIFF through a real import (real worker processes): Circa reads its first page,
 * records how many pages the file holds on the photo, and the metadata job's summary says
 * "page 1 of N", so the archivist sees that the rest of the file was not read.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { openTestCore, tempDir } from '../support/core';
import { importSettled, writeTestJpeg } from '../support/import-settled';
import { writeMultiPageTiff } from '../support/scan-images';

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

describe('multi-page TIFF import', () => {
  it('records the page count and says page 1 of N; a single image records none', async () => {
    const dir = tempDir('circa-pages-');
    const [w, h] = [320, 240];
    await writeMultiPageTiff(path.join(dir, 'album-leaves.tif'), [40, 90, 140, 190], w, h);
    await writeTestJpeg(path.join(dir, 'single.jpg'));
    core = openTestCore({ concurrency: 1 });
    await importSettled(core, dir);

    const items = core.photos.list({ sort: 'filename', filter: 'all', limit: 10 }).items;
    const [tiff, jpeg] = items.map((p) => core!.photos.get(p.id)!);
    expect([tiff.filename, jpeg.filename]).toEqual(['album-leaves.tif', 'single.jpg']);
    expect(tiff).toMatchObject({ metadata_status: 'ready', page_count: 4, width: w, height: h });
    expect(jpeg).toMatchObject({ metadata_status: 'ready', page_count: null });

    const jobs = core.jobs.summaries(core.jobs.queries.list({ types: ['metadata'], limit: 10 }).rows);
    const summaries = jobs.map((j) => j.resultSummary ?? '');
    expect(summaries.find((s) => s.includes('tiff'))).toContain('page 1 of 4');
    expect(summaries.find((s) => s.includes('jpeg'))).not.toContain('page');
    expect(fs.existsSync(path.join(core.paths.dir, tiff.thumbnail!))).toBe(true);
  });
});
