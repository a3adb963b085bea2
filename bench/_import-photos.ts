/**
 * The import benchmark's JPEG set (`npm run bench -- import`): photo-like JPEGs of 1.1–12 MP,
 * each file's bytes unique, the sizes interleaved so every stretch of an import has the whole mix.
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
    // A photo-like image (noise + gradient) so JPEG sizes are realistic, with an EXIF date.
    const raw = await sharp({
      create: { width: m.w, height: m.h, channels: 3, noise: { type: 'gaussian', mean: 128, sigma: 60 }, background: '#808080' },
    })
      .raw()
      .toBuffer();
    // Blurred noise: photo-like detail that compresses like a real scan (~1–3 MB at 12 MP).
    const noise = await sharp(raw, { raw: { width: m.w, height: m.h, channels: 3 } })
      .blur(2.5)
      .jpeg({ quality: 85 })
      .withExif({ IFD0: { Make: 'Bench', Model: 'Generator', DateTime: '1987:06:12 10:00:00' } })
      .toBuffer();
    bases.push(noise);
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

/** The size furthest behind its share after `k` photos (ties to the first). */
function sizeFor(k: number, given: number[]): number {
  let best = 0;
  for (let i = 1; i < MIX.length; i++) if (MIX[i].share * (k + 1) - given[i] > MIX[best].share * (k + 1) - given[best]) best = i;
  return best;
}
