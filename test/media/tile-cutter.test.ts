/**
 * A tile cut from the original on demand (src/main/media/tile-cutter.ts) against the same tile of
 * the pyramid the `preview` job makes afterwards, on a real uncompressed TIFF of photo-like
 * content. At full resolution they are the same bytes. A coarser level is shrunk in one step (a
 * box shrink, then a Lanczos reduce: a little sharper) where libvips' dzsave averages 2 × 2 level by
 * level: the tolerance is a mean difference of at most 6 of 255 per sample after both are decoded
 * (measured 0.9–1.1 one level down, 4–5 three levels down on this detailed content), and no shift:
 * the cut tile is nearer the pyramid's than the pyramid's own tile moved by one pixel is.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { serveMedia } from '../../src/main/media/media';
import { tileFileFor } from '../../src/main/media/pyramid-files';
import type { Viewer } from '../../src/shared/contract';
import { callCore, openTestCore, tempDir, waitFor, waitForStatus } from '../support/core';

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

/** Blurred noise enlarged: smooth areas and edges, as a scanned print has. */
async function writeScan(file: string, width: number, height: number) {
  const base = await sharp({
    create: { width: 400, height: 300, channels: 3, noise: { type: 'gaussian', mean: 128, sigma: 60 }, background: '#808080' },
  })
    .blur(1.2)
    .png()
    .toBuffer();
  await sharp(base).resize(width, height, { fit: 'fill', kernel: 'cubic' }).tiff({ compression: 'none' }).toFile(file);
}

async function pixels(jpeg: Buffer) {
  return sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
}

describe('tiles cut on demand', () => {
  it('are the pyramid’s tiles: the same bytes at full resolution, within 6/255 on average and unshifted below', async () => {
    const dir = tempDir('circa-cut-');
    await writeScan(path.join(dir, 'scan.tif'), 3001, 2003);
    core = openTestCore({ concurrency: 1 });
    core.importer.start([dir], 'detect');
    await waitFor(
      () => core!.importer.status()?.status === 'done' && core!.jobs.counts().queued + core!.jobs.counts().running === 0,
    );
    const [photo] = core.photos.list({ sort: 'filename', filter: 'all', limit: 1 }).items;

    await callCore(core, 'jobs.setPaused', { paused: true });
    const v = (await callCore(core, 'photos.viewer', { id: photo.id })) as Extract<Viewer, { kind: 'tiles' }>;
    expect(v).toMatchObject({ kind: 'tiles', width: 3001, height: 2003, levels: 4 });
    // Full resolution (an inner tile and the ragged corner), then each coarser level.
    const wanted = [
      [3, 0, 0],
      [3, 2, 1],
      [3, 5, 3],
      [2, 1, 1],
      [2, 2, 1],
      [1, 0, 0],
      [0, 0, 0],
    ] as const;
    const cut = new Map<string, Buffer>();
    for (const [level, col, row] of wanted) {
      const res = await serveMedia(core.media, new URL(`circa://app/media/tile/${photo.id}/${level}/${col}_${row}`));
      expect(res.status).toBe(200);
      cut.set(`${level}/${col}_${row}`, Buffer.from(await res.arrayBuffer()));
    }

    await callCore(core, 'jobs.setPaused', { paused: false });
    const [job] = core.jobs.queries.list({ subject: `photo:${photo.id}`, types: ['preview'], limit: 1 }).rows;
    expect((await waitForStatus(core, job.id, ['success', 'failed'], 120_000)).status).toBe('success');
    const sha = core.photos.get(photo.id)!.sha256;

    for (const [level, col, row] of wanted) {
      const made = fs.readFileSync(tileFileFor(core.paths.previewsDir, sha, level, col, row));
      const ours = cut.get(`${level}/${col}_${row}`)!;
      if (level === 3) {
        expect(ours.equals(made), `tile ${level}/${col}_${row}`).toBe(true);
        continue;
      }
      const [a, b] = [await pixels(ours), await pixels(made)];
      expect([a.info.width, a.info.height], `tile ${level}/${col}_${row}`).toEqual([b.info.width, b.info.height]);
      const { width, channels } = a.info;
      // Mean |a − b| over the tile, b read `dx` columns to the right (the last columns left out).
      const difference = (dx: number) => {
        let sum = 0;
        let n = 0;
        for (let i = 0; i < a.data.length; i++) {
          if (Math.floor(i / channels) % width >= width - 1) continue;
          sum += Math.abs(a.data[i] - b.data[i + dx * channels]);
          n++;
        }
        return sum / n;
      };
      const mean = difference(0);
      expect(mean, `mean difference of tile ${level}/${col}_${row}`).toBeLessThanOrEqual(6);
      expect(mean, `tile ${level}/${col}_${row} is not shifted`).toBeLessThan(difference(1));
    }
    // Once the pyramid is published, its own tile is what is served.
    const served = await serveMedia(core.media, new URL(`circa://app/media/tile/${photo.id}/0/0_0`));
    expect(
      Buffer.from(await served.arrayBuffer()).equals(fs.readFileSync(tileFileFor(core.paths.previewsDir, sha, 0, 0, 0))),
    ).toBe(true);
  });
});
