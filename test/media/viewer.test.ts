/**
 * The full-resolution viewer's source, through a real core: a JPEG the window can draw is shown
 * as itself; a TIFF (or a scan too large to decode whole) is shown as a zoom view at once, its
 * tiles cut from the original when asked for while a worker makes the whole pyramid behind
 * (`preview` job); main serves them one at a time by opaque id.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { parseMediaPath, serveMedia } from '../../src/main/media/media';
import { appPaths } from '../../src/main/app-paths';
import type { Viewer } from '../../src/shared/contract';
import { callCore, openTestCore, tempDir, waitFor, waitForStatus } from '../support/core';

const CORPUS = path.resolve(appPaths().root, '..', 'shared', 'corpus', 'exif-samples');

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

async function importSettled(c: Core, dir: string) {
  const started = c.importer.start([dir], 'detect');
  await waitFor(() => {
    const s = c.importer.status();
    return s && s.id === started.id && s.status !== 'running';
  });
  await waitFor(() => c.jobs.counts().queued + c.jobs.counts().running === 0, 60_000, 'metadata');
  return c.photos.list({ sort: 'filename', filter: 'all', limit: 50 }).items;
}

async function viewer(c: Core, id: number): Promise<Viewer> {
  const r = await c.dispatch('photos.viewer', { id });
  if (!r.ok) throw new Error(r.error.message);
  return r.value as Viewer;
}

async function body(res: Response): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of res.body!) chunks.push(chunk);
  return Buffer.concat(chunks);
}

describe('photos.viewer', () => {
  it('shows a JPEG as itself, and a TIFF as tiles at once, cut before its pyramid is made', async () => {
    const dir = tempDir('circa-viewer-');
    fs.copyFileSync(path.join(CORPUS, 'jpg', 'Canon_40D.jpg'), path.join(dir, 'Canon_40D.jpg'));
    await sharp({ create: { width: 2400, height: 1600, channels: 3, background: '#806040' } })
      .tiff()
      .toFile(path.join(dir, 'master.tif'));
    core = openTestCore({ concurrency: 1 });
    const [jpeg, tiff] = await importSettled(core, dir);
    expect([jpeg.filename, tiff.filename]).toEqual(['Canon_40D.jpg', 'master.tif']);

    expect(await viewer(core, jpeg.id)).toMatchObject({ kind: 'image', width: 100, height: 68 });

    // The queue is held: the pyramid cannot be made, and the viewer must not wait for it.
    await callCore(core, 'jobs.setPaused', { paused: true });
    const first = await viewer(core, tiff.id);
    expect(first).toMatchObject({ kind: 'tiles', width: 2400, height: 1600, tileSize: 512, overlap: 1, levels: 4 });
    const [job] = core.jobs.queries.list({ subject: `photo:${tiff.id}`, types: ['preview'], limit: 5 }).rows;
    expect(job.status).toBe('queued');
    // Asking again while it waits is the same job, not another.
    await viewer(core, tiff.id);
    expect(core.jobs.queries.list({ subject: `photo:${tiff.id}`, types: ['preview'], limit: 5 }).rows).toHaveLength(1);

    const tileUrl = new URL(`circa://app/media/tile/${tiff.id}/3/4_3`);
    const res = await serveMedia(core.media, tileUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    const meta = await sharp(await body(res)).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 2400 - 4 * 512 + 1, 1600 - 3 * 512 + 1]);
    expect(core.jobs.queries.get(job.id)?.status).toBe('queued');

    await callCore(core, 'jobs.setPaused', { paused: false });
    const done = await waitForStatus(core, job.id, ['success', 'failed']);
    expect(done.status).toBe('success');
    expect(done.result_summary).toMatch(/^2400×1600 px in 4 levels, \d+ tiles/);
    expect(await viewer(core, tiff.id)).toMatchObject({ kind: 'tiles', width: 2400, height: 1600, levels: 4 });
    expect((await serveMedia(core.media, tileUrl)).status).toBe(200);

    // Only tiles that exist, of photos that exist, by digits only.
    const status = async (p: string) => (await serveMedia(core!.media, new URL(`circa://app/media/${p}`))).status;
    expect(await status(`tile/${tiff.id}/3/9_9`)).toBe(404);
    expect(await status(`tile/${tiff.id}/4/0_0`)).toBe(404);
    expect(await status(`tile/${tiff.id}/p2/0/0_0`)).toBe(404); // it has one page
    expect(await status(`tile/999/0/0_0`)).toBe(404);
    expect(parseMediaPath(`/media/tile/${tiff.id}/../../circa.db`)).toBeNull();
    expect(parseMediaPath(`/media/tile/${tiff.id}/3/4_3.jpeg`)).toBeNull();
    expect(parseMediaPath(`/media/tile/${tiff.id}/p0/3/4_3`)).toBeNull();
    expect(parseMediaPath(`/media/page-thumb/${tiff.id}/0`)).toBeNull();
  });

  it('says why there is no view: a missing file, a photo not read, a view that could not be made', async () => {
    const dir = tempDir('circa-viewer-');
    await sharp({ create: { width: 640, height: 480, channels: 3, background: '#405060' } })
      .tiff()
      .toFile(path.join(dir, 'gone.tif'));
    fs.writeFileSync(path.join(dir, 'broken.png'), Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'));
    core = openTestCore({ concurrency: 1 });
    const [broken, gone] = await importSettled(core, dir);
    expect(await viewer(core, broken.id)).toMatchObject({
      kind: 'unavailable',
      reason: expect.stringContaining('could not be read'),
    });

    // The file goes away: said at once, and no job is started for it.
    const goneFile = path.join(dir, 'gone.tif');
    const kept = fs.readFileSync(goneFile);
    const stat = fs.statSync(goneFile);
    fs.rmSync(goneFile);
    expect(await viewer(core, gone.id)).toMatchObject({ kind: 'unavailable', reason: expect.stringContaining('missing') });
    expect(core.jobs.queries.list({ subject: `photo:${gone.id}`, types: ['preview'], limit: 5 }).rows).toHaveLength(0);

    // Back with other bytes of the same size and time: its pyramid job finds out (by its hash),
    // fails permanently, and the viewer says so instead of cutting more tiles.
    kept[kept.length - 1] ^= 0xff;
    fs.writeFileSync(goneFile, kept);
    fs.utimesSync(goneFile, stat.atime, stat.mtime);
    expect((await viewer(core, gone.id)).kind).toBe('tiles');
    const [job] = core.jobs.queries.list({ subject: `photo:${gone.id}`, types: ['preview'], limit: 5 }).rows;
    await waitForStatus(core, job.id, ['failed']);
    const failed = await viewer(core, gone.id);
    expect(failed).toMatchObject({ kind: 'unavailable', job: { id: job.id, errorKind: 'permanent' } });
    expect((failed as Extract<Viewer, { kind: 'unavailable' }>).reason).toContain('File changed since import');
    // Opening the photo again does not start another doomed job.
    expect(await viewer(core, gone.id)).toMatchObject({ job: { id: job.id } });
  });
});
