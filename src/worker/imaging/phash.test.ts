import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { xorshift32Bytes } from '../../../test/support/hostile-files';
import { PHASH_INPUT_SIZE, computePhash, hammingDistance, phashFromGreyscale, phashFromPixels } from './phash';

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

/** The 32×32 inputs of the known-answer vectors (integers only, so any language builds them alike). */
const xorshiftGrey = (seed: number) => new Uint8Array(xorshift32Bytes(1024, seed));
const grid = (f: (r: number, c: number) => number) => Uint8Array.from({ length: 1024 }, (_, i) => f(Math.floor(i / 32), i % 32));
const VECTORS: [string, Uint8Array, string][] = [
  ['pseudo-random noise (xorshift32, seed 0x12345678)', xorshiftGrey(0x12345678), 'bf2aa75b8921216d'],
  [
    'a gradient with a bright disc',
    grid((r, c) => Math.min(255, 2 * c + 3 * r + ((r - 12) ** 2 + (c - 20) ** 2 < 60 ? 90 : 0))),
    '90146b6b9d6c6d93',
  ],
  ['diagonal stripes', grid((r, c) => ((c * 5 + r * 3) % 64) * 4), 'd38a5206ecaaacd7'],
];

/**
 * The DCT-II straight from its definition — a double sum per coefficient, no separation into
 * passes, no shared cosine table — as an independent reference for the fast code.
 */
function referencePhash(grey: ArrayLike<number>): string {
  const coeffs: number[] = [];
  for (let u = 0; u < 8; u++)
    for (let v = 0; v < 8; v++) {
      let sum = 0;
      for (let y = 0; y < 32; y++)
        for (let x = 0; x < 32; x++)
          sum += grey[y * 32 + x] * Math.cos((Math.PI * u * (2 * y + 1)) / 64) * Math.cos((Math.PI * v * (2 * x + 1)) / 64);
      coeffs.push(sum);
    }
  const sorted = [...coeffs].sort((a, b) => a - b);
  const median = (sorted[31] + sorted[32]) / 2;
  return BigInt('0b' + coeffs.map((c) => (c > median ? '1' : '0')).join(''))
    .toString(16)
    .padStart(16, '0');
}

describe('pHash known answers', () => {
  // Computed with SciPy 1.17 by imagehash.phash's own steps (scipy.fftpack.dct along axis 0, then
  // axis 1; the 8×8 lowest frequencies; bit = coefficient > median; row-major, most significant
  // bit first) on the same 32×32 arrays: a published DCT, not this code's. The arrays are built
  // from integers so both sides hold identical inputs; the nearest coefficient lies ≥ 4·10⁻⁶ of
  // the largest from the median, far above floating-point differences.
  it.each(VECTORS)('%s', (_name, grey, expected) => {
    expect(phashFromGreyscale(grey)).toBe(expected);
    expect(referencePhash(grey)).toBe(expected);
  });

  it('agrees with the definition of the DCT on random images', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const grey = xorshiftGrey(seed * 7919);
      expect(phashFromGreyscale(grey), `seed ${seed}`).toBe(referencePhash(grey));
    }
  });
});

describe('phashFromPixels', () => {
  it('is the pHash of the area-averaged 32×32 luma', () => {
    // 64×64 RGB where every 2×2 block has one colour: the 32×32 luma is exactly known.
    const rgb = new Uint8Array(64 * 64 * 3);
    const expected = new Float64Array(32 * 32);
    for (let y = 0; y < 64; y++) {
      for (let x = 0; x < 64; x++) {
        const [r, g, b] = [(x * 4) & 255, (y * 4) & 255, ((x ^ y) * 8) & 255];
        rgb.set([r, g, b], (y * 64 + x) * 3);
        expected[(y >> 1) * 32 + (x >> 1)] = (77 * r + 150 * g + 29 * b) / 256;
      }
    }
    expect(phashFromPixels(rgb, 64, 64, 3)).toBe(phashFromGreyscale(expected));
  });

  it('reads grey pixels as their value and ignores alpha', () => {
    const n = 40;
    const grey = new Uint8Array(n * n);
    const greyAlpha = new Uint8Array(n * n * 2);
    const rgba = new Uint8Array(n * n * 4);
    for (let i = 0; i < n * n; i++) {
      const v = (i * 37) % 251;
      grey[i] = v;
      greyAlpha.set([v, 17], i * 2);
      rgba.set([v, v, v, 200], i * 4);
    }
    const h = phashFromPixels(grey, n, n, 1);
    expect(phashFromPixels(greyAlpha, n, n, 2)).toBe(h);
    expect(phashFromPixels(rgba, n, n, 4)).toBe(h);
  });

  it('hashes images smaller than 32 px, and refuses too few values', () => {
    const tiny = new Uint8Array(7 * 5 * 3).map((_, i) => (i * 53) % 256);
    expect(phashFromPixels(tiny, 7, 5, 3)).toMatch(/^[0-9a-f]{16}$/);
    expect(() => phashFromPixels(tiny, 8, 5, 3)).toThrow(/8×5×3/);
    expect(() => phashFromPixels(tiny, 7, 5, 5)).toThrow();
  });

  it('agrees with computePhash on the same picture', async () => {
    const original = await readFile(exifOrg('canon-ixus.jpg'));
    const { data, info } = await sharp(original)
      .resize({ width: 512, height: 512, fit: 'inside' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const lossless = await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
      .png()
      .toBuffer();
    expect(await computePhash(lossless)).toBe(phashFromPixels(data, info.width, info.height, info.channels));
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
