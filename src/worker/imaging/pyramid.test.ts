import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermanentJobError, serializeJobError } from '../../shared/jobs/errors';
import { sha256File } from '../../shared/node/hash';
import { PYRAMID_TILE_SIZE, type PreviewInput } from '../../shared/jobs/types/preview';
import { deepZoomLevels } from '../../shared/deep-zoom';
import { buildPyramid, readPublishedPyramid } from './pyramid';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'circa-pyramid-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A picture with detail everywhere: a gradient with a grid of dark squares (so a wrong tile shows). */
async function scan(name: string, width: number, height: number, format: 'tiff' | 'jpeg' | 'png', orientation?: number) {
  const file = path.join(dir, name);
  const squares = [];
  for (let y = 0; y < height; y += 400) for (let x = 0; x < width; x += 400) squares.push({ x, y });
  const dark = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#101010' } })
    .png()
    .toBuffer();
  let img = sharp({ create: { width, height, channels: 3, background: '#c8b496' } }).composite(
    squares.map((s) => ({ input: dark, left: s.x, top: s.y })),
  );
  if (orientation) img = img.withMetadata({ orientation });
  await (format === 'tiff' ? img.tiff() : format === 'png' ? img.png() : img.jpeg({ quality: 92 })).toFile(file);
  return file;
}

async function inputFor(file: string, out = 'out-' + path.basename(file)): Promise<PreviewInput> {
  const { sha256, size } = await sha256File(file);
  return {
    path: file,
    expected: { size, sha256 },
    outputDir: path.join(dir, 'previews', out),
    tileSize: PYRAMID_TILE_SIZE,
    maxFileBytes: 1024 ** 3,
    maxInputPixels: 400_000_000,
  };
}

describe('the zoom view of a photo', () => {
  it('is a Deep Zoom pyramid of the full-resolution TIFF, published whole, with a manifest', async () => {
    const file = await scan('scan.tif', 3000, 2000, 'tiff');
    const input = await inputFor(file);
    const progress: number[] = [];
    const p = await buildPyramid(input, { progress: (f) => progress.push(f) });
    expect(p).toMatchObject({ width: 3000, height: 2000, tileSize: 512, overlap: 1, levels: deepZoomLevels(3000, 2000, 512) });
    expect(p.levels).toBe(4); // 3000 → 1500 → 750 → 375 (fits one tile)
    expect(await readPublishedPyramid(input.outputDir)).toEqual(p);
    // Nothing of the work folder is left beside it.
    expect((await readdir(path.dirname(input.outputDir))).filter((n) => n.includes('.tmp-'))).toEqual([]);

    // The full-resolution level: 6 × 4 tiles; a tile holds the photo's own pixels at 1:1.
    const top = path.join(input.outputDir, 'tiles_files', '3');
    expect((await readdir(top)).length).toBe(6 * 4);
    const tile = sharp(path.join(top, '1_1.jpeg'));
    const meta = await tile.metadata();
    expect([meta.width, meta.height]).toEqual([514, 514]); // 512 + an overlap pixel on each inner side
    // The dark square at (800, 800) is at (800 − 511, 800 − 511) in tile (1, 1).
    const { data } = await tile
      .extract({ left: 800 - 511 + 10, top: 800 - 511 + 10, width: 4, height: 4 })
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(Math.max(...data)).toBeLessThan(60);
    // The coarsest level is one tile.
    expect(await readdir(path.join(input.outputDir, 'tiles_files', '0'))).toEqual(['0_0.jpeg']);
    expect(progress.length).toBeGreaterThan(0);
  });

  it('shows the photo as displayed: EXIF orientation applied', async () => {
    const file = await scan('turned.jpg', 1200, 800, 'jpeg', 6);
    const p = await buildPyramid(await inputFor(file));
    expect([p.width, p.height]).toEqual([800, 1200]);
  });

  it('is made once: a second request finds it published', async () => {
    const file = await scan('again.png', 900, 700, 'png');
    const input = await inputFor(file);
    const first = await buildPyramid(input);
    const manifest = path.join(input.outputDir, 'pyramid.json');
    const before = await readFile(manifest, 'utf8');
    expect(await buildPyramid(input)).toEqual(first);
    expect(await readFile(manifest, 'utf8')).toBe(before);
  });

  it('clears what a killed attempt left, and never publishes a half pyramid', async () => {
    const file = await scan('after-crash.png', 700, 600, 'png');
    const input = await inputFor(file);
    const stale = `${input.outputDir}.tmp-deadbeef0000`;
    await mkdir(path.join(stale, 'tiles_files', '0'), { recursive: true });
    await writeFile(path.join(stale, 'tiles_files', '0', '0_0.jpeg'), 'half');
    await buildPyramid(input);
    const siblings = await readdir(path.dirname(input.outputDir));
    expect(siblings.filter((n) => n.startsWith(path.basename(input.outputDir)))).toEqual([path.basename(input.outputDir)]);
  });

  it('refuses a file that is not the one imported, in plain words', async () => {
    const file = await scan('changed.png', 300, 200, 'png');
    const input = await inputFor(file);
    const err = await buildPyramid({ ...input, expected: { ...input.expected, sha256: 'ab'.repeat(32) } }).catch((e) => e);
    expect(err).toBeInstanceOf(PermanentJobError);
    expect(err.message).toBe('File changed since import: its content is not what was imported');
    expect(await readPublishedPyramid(input.outputDir)).toBeNull();
  });

  it('fails a truncated file permanently, the decoder text only in the technical details', async () => {
    const good = await readFile(await scan('whole.tif', 800, 600, 'tiff'));
    const file = path.join(dir, 'cut.tif');
    await writeFile(file, good.subarray(0, Math.floor(good.length / 3)));
    const err = await buildPyramid(await inputFor(file)).catch((e) => e);
    expect(err).toBeInstanceOf(PermanentJobError);
    expect(err.message).toMatch(/^Truncated or corrupt TIFF: /);
    expect(err.message).not.toMatch(/vips|tiff2vips|TIFFRead/i);
    expect(serializeJobError(err).stack).toMatch(/^Caused by: /);
  });

  it('refuses more pixels than the limit before decoding', async () => {
    const file = await scan('big.png', 1000, 1000, 'png');
    const err = await buildPyramid({ ...(await inputFor(file)), maxInputPixels: 500_000 }).catch((e) => e);
    expect(err).toBeInstanceOf(PermanentJobError);
    expect(err.message).toBe('Image too large: 1000×1000 px exceeds the 0.5 MP limit');
  });
});
