/**
 * The import benchmark's JPEG set (`npm run bench -- import`): photo-like JPEGs of 1.1–12 MP,
 * each file's bytes unique, the sizes interleaved so every stretch of an import has the whole mix.
 *
 * Photo-like means light and shade at several scales, colour, and grain, edge to edge. The set
 * before was blurred noise alone: nearly one grey, so the duplicate hashes' border trim took 30 %
 * off each side and found the picture too uniform to hash — work no real photo makes it do, and
 * the hashes priced above what they cost on a photo.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

/** Sizes in megapixels and their share of the photos: mostly ordinary scans, some large. */
const MIX = [
  { w: 1200, h: 900, share: 0.35 },
  { w: 2000, h: 1500, share: 0.3 },
  { w: 3000, h: 2000, share: 0.2 },
  { w: 4000, h: 3000, share: 0.15 }, // 12 MP
];

export async function makePhotos(dir: string, n: number): Promise<void> {
  const bases: Buffer[] = [];
  for (const m of MIX) {
    bases.push(await photoLike(m.w, m.h));
  }
  // The sizes interleaved in the files' (and so the import's) order, so that every stretch of the
  // import has the whole mix: with the 12 MP photos last, the last tenth ran at half the first
  // tenth's rate and a steady import read as one slowing down.
  const given = MIX.map(() => 0);
  for (let k = 0; k < n; k++) {
    const i = sizeFor(k, given);
    given[i]++;
    // A COM segment right after SOI makes every file's bytes (and SHA-256) unique without re-encoding.
    const comment = Buffer.from(`circa-bench ${k} ${crypto.randomUUID()}`);
    const seg = Buffer.alloc(4);
    seg.writeUInt16BE(0xfffe, 0);
    seg.writeUInt16BE(comment.length + 2, 2);
    // Flushed to disk as written: a gigabyte of dirty pages written back during the first
    // round would slow whichever side runs then.
    const fd = fs.openSync(path.join(dir, `photo-${String(k).padStart(6, '0')}.jpg`), 'w');
    fs.writeSync(fd, Buffer.concat([bases[i].subarray(0, 2), seg, comment, bases[i].subarray(2)]));
    fs.fsyncSync(fd);
    fs.closeSync(fd);
  }
}

/**
 * A photo-like picture as JPEG (~0.3 MB at 1 MP, ~3 MB at 12 MP, quality 85) with an EXIF date:
 * broad light and shade, mid-sized shapes, patches of colour, and grain, summed per pixel.
 */
async function photoLike(w: number, h: number): Promise<Buffer> {
  const broad = await enlargedNoise(w, h, 160, 1, 70);
  const shapes = await enlargedNoise(w, h, 25, 1, 40);
  const colour = await enlargedNoise(w, h, 90, 3, 30);
  const grain = await sharp({
    create: { width: w, height: h, channels: 3, noise: { type: 'gaussian', mean: 128, sigma: 60 }, background: '#808080' },
  })
    .blur(2)
    .raw()
    .toBuffer();
  const pixels = Buffer.allocUnsafe(w * h * 3); // the sum, clamped by the Buffer's 0–255 store
  for (let p = 0, i = 0; p < w * h; p++) {
    for (let c = 0; c < 3; c++, i++) {
      pixels[i] = Math.max(0, Math.min(255, broad[p] + shapes[p] - 128 + colour[i] - 128 + (grain[i] - 128) * 1.5));
    }
  }
  return sharp(pixels, { raw: { width: w, height: h, channels: 3 } })
    .jpeg({ quality: 85 })
    .withExif({ IFD0: { Make: 'Bench', Model: 'Generator', DateTime: '1987:06:12 10:00:00' } })
    .toBuffer();
}

/** Gaussian noise at 1/scale of the size, enlarged smoothly: features about `scale` pixels across. */
async function enlargedNoise(w: number, h: number, scale: number, channels: 1 | 3, sigma: number): Promise<Buffer> {
  const cw = Math.max(2, Math.round(w / scale));
  const ch = Math.max(2, Math.round(h / scale));
  let small = sharp({
    create: { width: cw, height: ch, channels: 3, noise: { type: 'gaussian', mean: 128, sigma }, background: '#808080' },
  });
  if (channels === 1) small = small.extractChannel(0);
  const raw = await small.raw().toBuffer();
  return sharp(raw, { raw: { width: cw, height: ch, channels } })
    .resize(w, h, { kernel: 'cubic' })
    .raw()
    .toBuffer();
}

/** The size furthest behind its share after `k` photos (ties to the first). */
function sizeFor(k: number, given: number[]): number {
  let best = 0;
  for (let i = 1; i < MIX.length; i++) if (MIX[i].share * (k + 1) - given[i] > MIX[best].share * (k + 1) - given[best]) best = i;
  return best;
}
