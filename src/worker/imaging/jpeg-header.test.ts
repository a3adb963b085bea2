import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { exifOrientation, readJpegHeader } from './jpeg-header';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const corpus = path.resolve(repoRoot, '../shared/corpus/exif-samples');

async function jpegsUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && /\.jpe?g$/i.test(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

describe('readJpegHeader', () => {
  it('reads what the decoder reads from every JPEG of the corpus', async () => {
    const files = await jpegsUnder(path.join(corpus, 'jpg'));
    expect(files.length).toBeGreaterThan(40);
    let read = 0;
    for (const file of files) {
      const bytes = await readFile(file);
      const meta = await sharp(bytes, { limitInputPixels: false })
        .metadata()
        .catch(() => null);
      const header = readJpegHeader(bytes);
      if (!meta) continue; // the decoder cannot read it either (the corpus's broken files)
      const name = path.relative(corpus, file);
      if (!header) {
        // Only a file the walk cannot follow may fall back to the decoder; it must not be a plain one.
        expect(meta.width * meta.height, `${name} fell back`).toBeGreaterThan(0);
        continue;
      }
      read++;
      expect([header.width, header.height], name).toEqual([meta.width, meta.height]);
      const decoders = meta.orientation && meta.orientation >= 1 && meta.orientation <= 8 ? meta.orientation : null;
      expect(header.orientation, `${name} orientation`).toBe(decoders);
      expect(header.exif?.equals(meta.exif!) ?? meta.exif === undefined, `${name} EXIF block`).toBe(true);
      expect(header.xmp?.equals(meta.xmp!) ?? meta.xmp === undefined, `${name} XMP block`).toBe(true);
    }
    expect(read).toBeGreaterThan(files.length * 0.9);
  });

  it('returns null for what is not a JPEG, or a JPEG cut before its frame header', async () => {
    const bytes = await readFile(path.join(corpus, 'jpg/Canon_40D.jpg'));
    expect(readJpegHeader(Buffer.from('not a jpeg at all'))).toBeNull();
    expect(readJpegHeader(Buffer.alloc(0))).toBeNull();
    expect(readJpegHeader(bytes.subarray(0, 200))).toBeNull();
    // A segment length that runs past the end of the file.
    const bad = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0xff, 0xf0, 0, 0]);
    expect(readJpegHeader(bad)).toBeNull();
  });

  it('leaves a frame header with no height (defined later by DNL) to the decoder', () => {
    const sof = [0xff, 0xc0, 0, 11, 8, 0, 0, 0x01, 0x00, 1, 1, 0x11, 0];
    expect(readJpegHeader(Buffer.from([0xff, 0xd8, ...sof, 0xff, 0xd9]))).toBeNull();
  });
});

describe('exifOrientation', () => {
  const block = (order: 'II' | 'MM', value: number, type = 3) => {
    const tiff = Buffer.alloc(26);
    const le = order === 'II';
    tiff.write(order, 0, 'latin1');
    const u16 = (v: number, at: number) => (le ? tiff.writeUInt16LE(v, at) : tiff.writeUInt16BE(v, at));
    const u32 = (v: number, at: number) => (le ? tiff.writeUInt32LE(v, at) : tiff.writeUInt32BE(v, at));
    u16(42, 2);
    u32(8, 4);
    u16(1, 8); // one entry
    u16(0x0112, 10);
    u16(type, 12);
    u32(1, 14);
    u16(value, 18);
    return Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  };

  it('reads the tag in either byte order, and only 1–8 as a SHORT', () => {
    expect(exifOrientation(block('II', 6))).toBe(6);
    expect(exifOrientation(block('MM', 8))).toBe(8);
    expect(exifOrientation(block('II', 0))).toBeNull();
    expect(exifOrientation(block('II', 9))).toBeNull();
    expect(exifOrientation(block('II', 6, 4))).toBeNull();
    expect(exifOrientation(block('II', 6).subarray(0, 20))).toBeNull();
  });
});
