import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { HASH_KINDS } from '../../shared/duplicates/hash-set';
import { LumaPlane } from './luma-grid';
import { hammingDistance, phashFromPixels } from './phash';
import { computePhotoHashes, hashRegions, photoHashesFromPixels, trimBorder } from './photo-hashes';
import { corpus, extract, setUpImagingFixtures } from './metadata-test-kit';

setUpImagingFixtures();

/** An RGB image: a picture of w × h (smooth shapes, as a photo's low frequencies are) inside a border of `b` pixels in `colour`. */
function framed(w: number, h: number, b: number, colour: [number, number, number]) {
  const W = w + 2 * b;
  const H = h + 2 * b;
  const data = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const inside = x >= b && x < b + w && y >= b && y < b + h;
      const [u, v] = [(x - b) / w, (y - b) / h];
      const shade = 110 + 90 * Math.sin(6 * u + 1) * Math.cos(5 * v * v + 2 * u);
      const rgb = inside ? [shade, 0.8 * shade + 30 * u, 140 - 60 * v] : colour;
      data.set(rgb, (y * W + x) * 3);
    }
  }
  return { data, width: W, height: H };
}

describe('LumaPlane.grid', () => {
  it('averages exactly over fractional cells (a 3-pixel image into 2 cells)', () => {
    const plane = new LumaPlane(Uint8Array.of(0, 90, 180), 3, 1, 1);
    // Cell 0 covers pixel 0 and half of pixel 1: (0 + 45) / 1.5 = 30.
    expect(Array.from(plane.grid(2))).toEqual([30, 150, 30, 150]);
  });
});

describe('trimBorder', () => {
  it('finds the picture inside a print border, in two passes for a border around a white margin', () => {
    const { data, width, height } = framed(120, 90, 12, [243, 239, 230]);
    expect(trimBorder(new LumaPlane(data, width, height, 3))).toEqual({ x0: 12, y0: 12, x1: 132, y1: 102 });
    // No border: nothing is cut.
    const bare = framed(120, 90, 0, [0, 0, 0]);
    expect(trimBorder(new LumaPlane(bare.data, 120, 90, 3))).toEqual({ x0: 0, y0: 0, x1: 120, y1: 90 });
  });

  it('never cuts more than 30 % of a side', () => {
    const { data, width, height } = framed(10, 10, 45, [255, 255, 255]);
    const box = trimBorder(new LumaPlane(data, width, height, 3));
    expect(box.x0).toBeLessThanOrEqual(Math.floor(0.3 * width));
    expect(width - box.x1).toBeLessThanOrEqual(Math.floor(0.3 * width));
  });
});

describe('photoHashesFromPixels', () => {
  it('gives seven hashes, the first the whole-image pHash; a bordered copy matches inside its border', () => {
    const bare = framed(160, 120, 0, [0, 0, 0]);
    const bordered = framed(160, 120, 14, [250, 250, 250]);
    const a = photoHashesFromPixels(bare.data, bare.width, bare.height, 3);
    const b = photoHashesFromPixels(bordered.data, bordered.width, bordered.height, 3);
    expect(a.hashes).toHaveLength(HASH_KINDS.length);
    expect(a.hashes![0]).toBe(a.full);
    expect(a.full).toBe(phashFromPixels(bare.data, bare.width, bare.height, 3));
    const content = HASH_KINDS.indexOf('content');
    expect(hammingDistance(a.hashes![content], b.hashes![content])).toBeLessThanOrEqual(2);
    expect(hammingDistance(a.full, b.full)).toBeGreaterThan(6);
  });

  it('gives no duplicate hashes for a nearly uniform image (a blank page matches every blank page)', () => {
    const blank = new Uint8Array(64 * 64).map((_, i) => 200 + (i % 3));
    expect(photoHashesFromPixels(blank, 64, 64, 1).hashes).toBeNull();
  });

  it('hashes the regions it says: centre inset 2.5 %, corners cut 5 % off two sides', () => {
    const r = hashRegions({ x0: 0, y0: 0, x1: 200, y1: 100 });
    expect(r.centre).toEqual({ x0: 5, y0: 2.5, x1: 195, y1: 97.5 });
    expect(r.cornerTL).toEqual({ x0: 0, y0: 0, x1: 190, y1: 95 });
    expect(r.cornerBR).toEqual({ x0: 10, y0: 5, x1: 200, y1: 100 });
  });
});

describe('computePhotoHashes', () => {
  it('agrees with the metadata job on the same photo, and with a re-hash of its thumbnail within two bits', async () => {
    const file = path.join(corpus, 'jpg/exif-org/fujifilm-dx10.jpg');
    const meta = await extract(file);
    const direct = await computePhotoHashes(await readFile(file));
    expect(meta.duplicateHashes).toEqual(direct.hashes);
    expect(meta.phash).toBe(direct.full);
    const fromThumbnail = await computePhotoHashes(await readFile(meta.thumbnail.path));
    for (const [i, h] of fromThumbnail.hashes!.entries()) expect(hammingDistance(h, direct.hashes![i])).toBeLessThanOrEqual(2);
  });

  it('applies the EXIF orientation, so a rotated file and its upright twin hash alike', async () => {
    const upright = await computePhotoHashes(await readFile(path.join(corpus, 'jpg/orientation/landscape_1.jpg')));
    const rotated = await computePhotoHashes(await readFile(path.join(corpus, 'jpg/orientation/landscape_6.jpg')));
    // The two differ only in the digit drawn on them.
    expect(hammingDistance(upright.full, rotated.full)).toBeLessThanOrEqual(6);
    const sideways = await sharp(path.join(corpus, 'jpg/orientation/landscape_6.jpg')).jpeg().toBuffer(); // orientation dropped
    expect(hammingDistance(upright.full, (await computePhotoHashes(sideways)).full)).toBeGreaterThan(12);
  });
});
