import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { PHASH_INPUT_SIZE, computePhash, hammingDistance, phashFromGreyscale } from './phash';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const corpus = path.resolve(repoRoot, '../shared/corpus/exif-samples');
const exifOrg = (name: string) => path.join(corpus, 'jpg/exif-org', name);

/** Distances observed on the corpus: a re-encoded copy ≤ 4, distinct photos ≥ 24. */
const SAME_MAX = 6;
const DIFFERENT_MIN = 16;

describe('hammingDistance', () => {
  it('counts differing bits', () => {
    expect(hammingDistance('0000000000000000', '0000000000000000')).toBe(0);
    expect(hammingDistance('0000000000000000', 'ffffffffffffffff')).toBe(64);
    expect(hammingDistance('8000000000000001', '0000000000000000')).toBe(2);
    expect(hammingDistance('00000000f0000000', '0000000000000000')).toBe(4);
    expect(hammingDistance('ABCDEF0123456789', 'abcdef0123456789')).toBe(0);
  });

  it('is symmetric', () => {
    const a = 'd25725691b24c4bf';
    const b = 'c5b525ca7ac4c36c';
    expect(hammingDistance(a, b)).toBe(hammingDistance(b, a));
  });

  it('rejects anything but 16 hex characters', () => {
    expect(() => hammingDistance('123', '0000000000000000')).toThrow(/16-character hex/);
    expect(() => hammingDistance('zzzzzzzzzzzzzzzz', '0000000000000000')).toThrow(/16-character hex/);
  });
});

describe('phashFromGreyscale', () => {
  it('gives 16 hex characters, and a flat image only its DC bit', () => {
    const flat = new Uint8Array(PHASH_INPUT_SIZE * PHASH_INPUT_SIZE).fill(128);
    expect(phashFromGreyscale(flat)).toBe('8000000000000000');
  });

  it('tells a bright left half from a bright top half', () => {
    const n = PHASH_INPUT_SIZE;
    const horizontal = new Uint8Array(n * n);
    const vertical = new Uint8Array(n * n);
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        horizontal[r * n + c] = c < n / 2 ? 230 : 20;
        vertical[r * n + c] = r < n / 2 ? 230 : 20;
      }
    }
    const h = phashFromGreyscale(horizontal);
    const v = phashFromGreyscale(vertical);
    expect(h).toMatch(/^[0-9a-f]{16}$/);
    expect(h).not.toBe('8000000000000000');
    expect(hammingDistance(h, v)).toBeGreaterThan(0);
  });

  it('refuses a wrong pixel count', () => {
    expect(() => phashFromGreyscale(new Uint8Array(10))).toThrow(/1024/);
  });
});

describe('computePhash', () => {
  it('is stable under resizing and re-encoding', async () => {
    for (const name of ['canon-ixus.jpg', 'fujifilm-dx10.jpg', 'olympus-d320l.jpg']) {
      const original = await readFile(exifOrg(name));
      const smaller = await sharp(original).resize({ width: 200 }).jpeg({ quality: 50 }).toBuffer();
      const asPng = await sharp(original).resize({ width: 320 }).png().toBuffer();
      const brighter = await sharp(original).modulate({ brightness: 1.15 }).jpeg({ quality: 70 }).toBuffer();
      const h = await computePhash(original);
      expect(hammingDistance(h, await computePhash(smaller)), `${name} resized`).toBeLessThanOrEqual(SAME_MAX);
      expect(hammingDistance(h, await computePhash(asPng)), `${name} as PNG`).toBeLessThanOrEqual(SAME_MAX);
      expect(hammingDistance(h, await computePhash(brighter)), `${name} brighter`).toBeLessThanOrEqual(SAME_MAX);
    }
  });

  it('keeps different photographs far apart', async () => {
    const names = ['canon-ixus.jpg', 'fujifilm-dx10.jpg', 'kodak-dc240.jpg', 'nikon-e950.jpg', 'sony-d700.jpg'];
    const hashes = await Promise.all(names.map(async (n) => computePhash(await readFile(exifOrg(n)))));
    for (let i = 0; i < hashes.length; i++) {
      for (let j = i + 1; j < hashes.length; j++) {
        expect(hammingDistance(hashes[i], hashes[j]), `${names[i]} vs ${names[j]}`).toBeGreaterThanOrEqual(DIFFERENT_MIN);
      }
    }
  });

  it('flattens transparency onto white', async () => {
    const transparent = await sharp({
      create: { width: 40, height: 40, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    const white = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    expect(await computePhash(transparent)).toBe(await computePhash(white));
  });
});
