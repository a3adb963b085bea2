/**
 * Pages past the first of a multi-page TIFF, through a real core: the photo is one record with
 * several pages (a print's front and back, an album leaf's pages), and each page has its own zoom
 * view and thumbnail, cut from that page of the original when first asked for.
 */
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { serveMedia } from '../../src/main/media/media';
import type { Viewer } from '../../src/shared/contract';
import { callCore, openTestCore, tempDir } from '../support/core';
import { importSettled, writeTestJpeg } from '../support/import-settled';
import { writeMultiPageTiff } from '../support/scan-images';

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

/** The mean of a served JPEG's samples, and its size. */
async function served(c: Core, mediaPath: string) {
  const res = await serveMedia(c.media, new URL(`circa://app/media/${mediaPath}`));
  if (res.status !== 200) return { status: res.status };
  const img = sharp(Buffer.from(await res.arrayBuffer()));
  const [{ width, height }, stats] = await Promise.all([img.metadata(), img.stats()]);
  return { status: 200, width, height, mean: Math.round(stats.channels[0].mean) };
}

describe('pages of a multi-page TIFF', () => {
  it('are one photo whose every page has its zoom view and thumbnail', async () => {
    const dir = tempDir('circa-pages-');
    await writeMultiPageTiff(path.join(dir, 'album-leaf.tif'), [40, 120, 200], 1200, 900);
    await writeTestJpeg(path.join(dir, 'single.jpg'));
    core = openTestCore({ concurrency: 1 });
    await importSettled(core, dir);
    const [leaf, single] = core.photos.list({ sort: 'filename', filter: 'all', limit: 10 }).items;
    expect(core.photos.list({ sort: 'filename', filter: 'all', limit: 10 }).items).toHaveLength(2);
    expect((await callCore(core, 'photos.get', { id: leaf.id })).pageCount).toBe(3);
    expect((await callCore(core, 'photos.get', { id: single.id })).pageCount).toBe(1);

    const page2 = (await callCore(core, 'photos.viewer', { id: leaf.id, page: 2 })) as Extract<Viewer, { kind: 'tiles' }>;
    expect(page2).toMatchObject({ kind: 'tiles', width: 1200, height: 900, tileSize: 512, levels: 3 });
    expect(page2.version).toMatch(/-p2$/);
    const page1 = (await callCore(core, 'photos.viewer', { id: leaf.id })) as Extract<Viewer, { kind: 'tiles' }>;
    expect(page1.version).not.toBe(page2.version);

    // Each page's tiles and thumbnail are of that page.
    expect(await served(core, `tile/${leaf.id}/2/0_0`)).toMatchObject({ status: 200, width: 513, height: 513, mean: 40 });
    expect(await served(core, `tile/${leaf.id}/p2/2/0_0`)).toMatchObject({ status: 200, width: 513, height: 513, mean: 120 });
    expect(await served(core, `tile/${leaf.id}/p3/0/0_0`)).toMatchObject({ status: 200, width: 300, height: 225, mean: 200 });
    expect(await served(core, `page-thumb/${leaf.id}/2`)).toMatchObject({ status: 200, width: 256, height: 192, mean: 120 });
    expect(await served(core, `page-thumb/${leaf.id}/3`)).toMatchObject({ status: 200, mean: 200 });

    // Pages it does not have: a clear error for the viewer, nothing served.
    const beyond = await core.dispatch('photos.viewer', { id: leaf.id, page: 4 });
    expect(beyond).toMatchObject({ ok: false, error: { code: 'not_found', message: 'album-leaf.tif has 3 pages, not 4' } });
    const one = await core.dispatch('photos.viewer', { id: single.id, page: 2 });
    expect(one).toMatchObject({ ok: false, error: { code: 'not_found', message: 'single.jpg has one page, not 2' } });
    expect((await served(core, `tile/${leaf.id}/p4/0/0_0`)).status).toBe(404);
    expect((await served(core, `page-thumb/${leaf.id}/4`)).status).toBe(404);
    expect((await served(core, `tile/${leaf.id}/p2/3/0_0`)).status).toBe(404);
  });
});
