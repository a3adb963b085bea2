/**
 * A very large file is streamed, never held in memory (metadata.ts, STREAM_ABOVE_BYTES): its
 * outputs must be exactly what the in-memory read gives. Every corpus file is extracted both ways
 * (streaming forced with a threshold of 0) and compared field by field, thumbnail bytes included;
 * and a file over the threshold is shown not to be held in memory while it is read. (A TIFF's
 * EXIF is still read whole by exifr: see exif.ts.)
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { extractPhotoMetadata, STREAM_ABOVE_BYTES, type PhotoMetadata } from './metadata';
import { hostile, listCorpus, MB, setUpImagingFixtures, thumbPath, tmp } from './metadata-test-kit';

setUpImagingFixtures();

async function both(file: string): Promise<{ inMemory: PhotoMetadata; streamed: PhotoMetadata; thumbs: [Buffer, Buffer] }> {
  const input = { path: file, expected: null, maxFileBytes: 100 * MB, maxInputPixels: 100_000_000 };
  const inMemory = await extractPhotoMetadata({ ...input, thumbnailPath: thumbPath() });
  const streamed = await extractPhotoMetadata({ ...input, thumbnailPath: thumbPath() }, { streamAboveBytes: 0 });
  return { inMemory, streamed, thumbs: [await readFile(inMemory.thumbnail.path), await readFile(streamed.thumbnail.path)] };
}

const withoutThumbnailPath = (m: PhotoMetadata) => ({ ...m, thumbnail: { ...m.thumbnail, path: '' } });

describe('streamed extraction', () => {
  it('gives every corpus file the same metadata, hashes and thumbnail as the in-memory read', async () => {
    const files = await listCorpus();
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) {
      const { inMemory, streamed, thumbs } = await both(file);
      expect(withoutThumbnailPath(streamed), path.basename(file)).toEqual(withoutThumbnailPath(inMemory));
      expect(thumbs[1].equals(thumbs[0]), `${path.basename(file)}: thumbnail bytes`).toBe(true);
    }
  }, 600_000);

  it('gives a 16-bit TIFF and a 16-bit PNG the same outputs both ways', async () => {
    const raw = Buffer.alloc(640 * 480 * 3);
    for (let i = 0; i < raw.length; i++) raw[i] = (i * 2654435761) >>> 24;
    const pixels = sharp(raw, { raw: { width: 640, height: 480, channels: 3 } }).toColourspace('rgb16');
    const tiff = path.join(tmp, 'scan16.tif');
    const png = path.join(tmp, 'scan16.png');
    await writeFile(tiff, await pixels.clone().tiff({ compression: 'lzw' }).toBuffer());
    await writeFile(png, await pixels.clone().png().toBuffer());
    for (const file of [tiff, png]) expect((await sharp(file).metadata()).depth).toBe('ushort');
    for (const file of [tiff, png]) {
      const { inMemory, streamed, thumbs } = await both(file);
      expect(withoutThumbnailPath(streamed)).toEqual(withoutThumbnailPath(inMemory));
      expect(thumbs[1].equals(thumbs[0])).toBe(true);
    }
  });

  it('refuses what the in-memory read refuses, with the same message', async () => {
    for (const file of [hostile.pixelBomb, hostile.truncatedJpeg, hostile.randomBytes, hostile.empty, hostile.textAsPng]) {
      const input = {
        path: file,
        expected: null,
        thumbnailPath: thumbPath(),
        maxFileBytes: 100 * MB,
        maxInputPixels: 100_000_000,
      };
      const inMemory = await extractPhotoMetadata(input).catch((e: Error) => e.message);
      const streamed = await extractPhotoMetadata(input, { streamAboveBytes: 0 }).catch((e: Error) => e.message);
      expect(typeof inMemory).toBe('string');
      expect(streamed, path.basename(file)).toBe(inMemory);
    }
  });

  it('reads the odd but readable hostile files (huge EXIF, a PNG named .jpg, malformed EXIF) the same way', async () => {
    for (const file of [hostile.hugeExif, hostile.mislabelledPng, hostile.malformedExif]) {
      const { inMemory, streamed, thumbs } = await both(file);
      expect(withoutThumbnailPath(streamed), path.basename(file)).toEqual(withoutThumbnailPath(inMemory));
      expect(thumbs[1].equals(thumbs[0])).toBe(true);
    }
  });

  it('never holds a file over the threshold in memory (an 86 MB 16-bit PNG)', async () => {
    const [w, h] = [4800, 3000];
    const noise = Buffer.alloc(w * h * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
    const file = path.join(tmp, 'archival.png');
    await sharp(noise, { raw: { width: w, height: h, channels: 3 } })
      .toColourspace('rgb16')
      .png({ compressionLevel: 0 })
      .toFile(file);
    expect((await stat(file)).size).toBeGreaterThan(STREAM_ABOVE_BYTES);
    // Buffers live outside V8's heap: sample their total while the job runs.
    const before = process.memoryUsage().arrayBuffers;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().arrayBuffers)), 1);
    try {
      const m = await extractPhotoMetadata({
        path: file,
        expected: null,
        thumbnailPath: thumbPath(),
        maxFileBytes: 1536 * MB,
        maxInputPixels: 100_000_000,
      });
      expect([m.width, m.height, m.format]).toEqual([w, h, 'png']);
    } finally {
      clearInterval(sampler);
    }
    expect(peak - before).toBeLessThan(32 * MB);
  }, 120_000);
});
