/**
 * What archival scans need of the metadata job (issue 31 item 3), with real sharp:
 *  - a 16-bit scan's thumbnail keeps its tones: a 16-bit ramp becomes every 8-bit level in order,
 *    neither clipped at the ends nor wrapped (a 16-bit value read as 8 bits wraps every 256), and
 *    a faint ramp (a pale, low-contrast print) lands on the levels it should;
 *  - a multi-page TIFF is read at its first page and says how many pages it holds.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { gradientPng16, tiff16, writeMultiPageTiff } from '../../../test/support/scan-images';
import { extract, setUpImagingFixtures, tmp } from './metadata-test-kit';

setUpImagingFixtures();

/** The thumbnail's middle row, as 8-bit grey. */
async function middleRow(thumbnail: string): Promise<number[]> {
  const { data, info } = await sharp(thumbnail).greyscale().raw().toBuffer({ resolveWithObject: true });
  const y = info.height >> 1;
  return Array.from(data.subarray(y * info.width, (y + 1) * info.width));
}

const W = 2048;
const H = 64;

describe('16-bit scans', () => {
  const cases = [
    { name: 'ramp16-rgb.png', make: async () => gradientPng16(W, H, 3) },
    { name: 'ramp16-grey.png', make: async () => gradientPng16(W, H, 1) },
    { name: 'ramp16-rgb-lzw.tif', make: () => tiff16(gradientPng16(W, H, 3), 3, 'lzw') },
    { name: 'ramp16-grey-uncompressed.tif', make: () => tiff16(gradientPng16(W, H, 1), 1, 'none') },
  ];
  for (const c of cases) {
    it(`${c.name}: the thumbnail of a full 16-bit ramp has every 8-bit level, in order, unclipped`, async () => {
      const file = path.join(tmp, c.name);
      await writeFile(file, await c.make());
      expect((await sharp(file).metadata()).depth).toBe('ushort');
      const m = await extract(file);
      expect([m.width, m.height, m.thumbnail.width]).toEqual([W, H, 512]);
      const row = await middleRow(m.thumbnail.path);
      // Where each column of the 512-px thumbnail should be: the ramp's value there, in 8 bits.
      for (let x = 0; x < row.length; x++) {
        const expected = (255 * (x + 0.5)) / row.length;
        expect(Math.abs(row[x] - expected), `column ${x}`).toBeLessThanOrEqual(3);
      }
      // No wrap and no plateau: never falls back, and no run of one level longer than a JPEG's
      // rounding explains (a clipped end would be a long run of 0 or 255).
      let longestRun = 1;
      for (let x = 1, run = 1; x < row.length; x++) {
        expect(row[x], `column ${x}`).toBeGreaterThanOrEqual(row[x - 1] - 2);
        run = row[x] === row[x - 1] ? run + 1 : 1;
        longestRun = Math.max(longestRun, run);
      }
      expect(longestRun).toBeLessThanOrEqual(6);
      expect(Math.min(...row)).toBeLessThanOrEqual(2);
      expect(Math.max(...row)).toBeGreaterThanOrEqual(253);
      expect(new Set(row).size).toBeGreaterThanOrEqual(230);
    });
  }

  it('puts a faint 16-bit ramp (a pale print) on the 8-bit levels it maps to, not wrapped', async () => {
    // 16-bit 20,000 → 21,000 is 8-bit 77.8 → 81.7; read as the low byte it would cycle 0–255 four times.
    const file = path.join(tmp, 'faint16.tif');
    await writeFile(file, await tiff16(gradientPng16(W, H, 3, 20_000, 21_000), 3));
    const row = await middleRow((await extract(file)).thumbnail.path);
    for (let x = 0; x < row.length; x++) {
      const expected = (20_000 + (1000 * (x + 0.5)) / row.length) / 257;
      expect(Math.abs(row[x] - expected), `column ${x}`).toBeLessThanOrEqual(1.5);
    }
  });
});

describe('multi-page TIFF', () => {
  it('is read at its first page, and says how many pages it holds', async () => {
    const file = path.join(tmp, 'three-pages.tif');
    await writeMultiPageTiff(file, [200, 60, 120], 400, 300);
    expect((await sharp(file).metadata()).pages).toBe(3);
    const m = await extract(file);
    expect(m.pages).toBe(3);
    expect([m.width, m.height, m.thumbnail.width, m.thumbnail.height]).toEqual([400, 300, 400, 300]);
    const row = await middleRow(m.thumbnail.path);
    for (const v of row) expect(Math.abs(v - 200)).toBeLessThanOrEqual(2); // the first page's grey
  });

  it('leaves the page count out for a single-page TIFF', async () => {
    const file = path.join(tmp, 'one-page.tif');
    await writeMultiPageTiff(file, [90], 400, 300);
    expect((await extract(file)).pages).toBeUndefined();
  });
});
