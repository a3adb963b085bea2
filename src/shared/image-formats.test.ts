import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  SUPPORTED_EXTENSIONS,
  SUPPORTED_FORMATS,
  describeFirstBytes,
  hasSupportedExtension,
  isSupportedFormat,
  sniffFormat,
} from './image-formats';

const bytes = (...xs: number[]) => Uint8Array.from(xs);
const ascii = (s: string) => Uint8Array.from(Buffer.from(s, 'latin1'));

function ftyp(major: string, ...compatible: string[]): Uint8Array {
  const body = Buffer.concat([
    Buffer.from('ftyp', 'latin1'),
    Buffer.from(major, 'latin1'),
    Buffer.alloc(4),
    ...compatible.map((c) => Buffer.from(c, 'latin1')),
  ]);
  const size = Buffer.alloc(4);
  size.writeUInt32BE(body.length + 4, 0);
  return Uint8Array.from(Buffer.concat([size, body, Buffer.alloc(16)]));
}

describe('sniffFormat', () => {
  it.each([
    ['JPEG (JFIF)', bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10), 'jpeg'],
    ['JPEG (Exif)', bytes(0xff, 0xd8, 0xff, 0xe1), 'jpeg'],
    ['PNG', bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13), 'png'],
    ['TIFF little-endian', bytes(0x49, 0x49, 0x2a, 0x00, 8, 0, 0, 0), 'tiff'],
    ['TIFF big-endian', bytes(0x4d, 0x4d, 0x00, 0x2a, 0, 0, 0, 8), 'tiff'],
    ['BigTIFF', bytes(0x49, 0x49, 0x2b, 0x00, 8, 0, 0, 0), 'tiff'],
    ['GIF87a', ascii('GIF87a\x01\x00'), 'gif'],
    ['GIF89a', ascii('GIF89a\x01\x00'), 'gif'],
    ['WebP', ascii('RIFF\x24\x00\x00\x00WEBPVP8 '), 'webp'],
    ['AVIF', ftyp('avif', 'mif1', 'miaf'), 'avif'],
    ['AVIF as compatible brand', ftyp('mif1', 'avif'), 'avif'],
    ['HEIC', ftyp('heic', 'mif1', 'heic'), 'heic'],
    ['RIFF but not WebP (WAV)', ascii('RIFF\x24\x00\x00\x00WAVEfmt '), null],
    ['MP4 video', ftyp('isom', 'iso2', 'mp41'), null],
    ['text', ascii('This is not a picture.'), null],
    ['PDF', ascii('%PDF-1.7\n'), null],
    ['SVG', ascii('<svg xmlns="http://www.w3.org/2000/svg">'), null],
    ['BMP (not supported)', ascii('BM6\x00\x00\x00'), null],
    ['empty', bytes(), null],
    ['half a JPEG marker', bytes(0xff, 0xd8), null],
  ])('%s', (_name, input, expected) => {
    expect(sniffFormat(input)).toBe(expected);
  });

  it('recognises what sharp writes, for every supported format, and sharp reads it back', async () => {
    const base = sharp({ create: { width: 16, height: 12, channels: 3, background: '#336699' } });
    const encoded: Record<string, Buffer> = {
      jpeg: await base.clone().jpeg().toBuffer(),
      png: await base.clone().png().toBuffer(),
      tiff: await base.clone().tiff().toBuffer(),
      webp: await base.clone().webp().toBuffer(),
      gif: await base.clone().gif().toBuffer(),
      avif: await base.clone().avif({ effort: 0 }).toBuffer(),
    };
    expect(Object.keys(encoded).sort()).toEqual([...SUPPORTED_FORMATS].sort());
    for (const [format, buf] of Object.entries(encoded)) {
      expect(sniffFormat(buf.subarray(0, 64)), format).toBe(format);
      const meta = await sharp(buf).metadata();
      expect([meta.width, meta.height], format).toEqual([16, 12]);
    }
  });
});

describe('extensions', () => {
  it('are lowercase, start with a dot and cover every supported format', () => {
    for (const ext of SUPPORTED_EXTENSIONS) expect(ext).toMatch(/^\.[a-z0-9]+$/);
    expect(SUPPORTED_EXTENSIONS).toEqual(
      expect.arrayContaining(['.jpg', '.jpeg', '.png', '.tif', '.tiff', '.webp', '.gif', '.avif']),
    );
    // HEIC is recognised by its bytes but the prebuilt decoder cannot read it.
    expect(SUPPORTED_EXTENSIONS).not.toContain('.heic');
    expect(new Set(SUPPORTED_EXTENSIONS).size).toBe(SUPPORTED_EXTENSIONS.length);
  });

  it.each([
    ['photo.JPG', true],
    ['/scans/1923/Box 4/IMG_0001.jpeg', true],
    ['C:\\Scans\\plate.TIF', true],
    ['scan.tiff', true],
    ['notes.txt', false],
    ['photo.jpg.xmp', false],
    ['.jpg', true],
    ['folder.jpg/readme', false],
    ['no-extension', false],
    ['IMG_0001.HEIC', false],
  ])('%s → %s', (name, expected) => {
    expect(hasSupportedExtension(name)).toBe(expected);
  });

  it('isSupportedFormat narrows known names only', () => {
    expect(isSupportedFormat('jpeg')).toBe(true);
    expect(isSupportedFormat('heic')).toBe(false);
    expect(isSupportedFormat('svg')).toBe(false);
  });
});

describe('describeFirstBytes', () => {
  it('shows hex bytes and marks more with an ellipsis', () => {
    expect(describeFirstBytes(bytes(0x3f, 0x8a, 0x00))).toBe('3f 8a 00');
    expect(describeFirstBytes(new Uint8Array(20).fill(0xab))).toBe('ab ab ab ab ab ab ab ab …');
  });
});
