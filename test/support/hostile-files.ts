/**
 * Hostile input files, generated at test time (nothing binary is committed). Each is small on
 * disk. Used by the imaging tests and by anything that must show a hostile file fails cleanly.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';

export type HostileFileName =
  /** A 2 KB PNG whose header declares 50000×50000 px (2.5 gigapixels). */
  | 'pixelBomb'
  /** A real JPEG (800×600 of noise) cut in half. */
  | 'truncatedJpeg'
  /** 4 KB of pseudo-random bytes named .jpg (first byte 0x3f, so never a magic number). */
  | 'randomBytes'
  /** A zero-byte .jpg. */
  | 'empty'
  /** A valid JPEG with a 60 000-character ImageDescription and 8 comment segments of 60 KB. */
  | 'hugeExif'
  /** A valid PNG named .jpg: mislabelled but readable. */
  | 'mislabelledPng'
  /** A text file named .png. */
  | 'textAsPng'
  /** A valid JPEG whose APP1 EXIF block points outside itself. */
  | 'malformedExif';

export type HostileFiles = Record<HostileFileName, string>;

export const HUGE_DESCRIPTION_CHARS = 60_000;
export const PIXEL_BOMB_SIZE = 50_000;

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A PNG that declares `width`×`height` RGB pixels but carries only a few rows of data. */
export function craftPixelBombPng(width = PIXEL_BOMB_SIZE, height = PIXEL_BOMB_SIZE): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  ihdr[10] = 0; // compression
  ihdr[11] = 0; // filter
  ihdr[12] = 0; // interlace
  const rows = deflateSync(Buffer.alloc((1 + width * 3) * 4)); // 4 black rows, compresses to ~1 KB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', rows),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Deterministic pseudo-random bytes: the low byte of each step of xorshift32 (13, 17, 5). */
export function xorshift32Bytes(length: number, seed: number): Buffer {
  const out = Buffer.alloc(length);
  let x = seed >>> 0;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

/** Deterministic pseudo-random bytes, first byte forced to 0x3f. */
function pseudoRandomBytes(length: number, seed = 0x9e3779b9): Buffer {
  const out = xorshift32Bytes(length, seed);
  out[0] = 0x3f;
  return out;
}

/** Insert a JPEG marker segment right after SOI. */
export function insertJpegSegment(jpeg: Buffer, marker: number, payload: Buffer): Buffer {
  if (payload.length > 0xffff - 2) throw new Error('JPEG segment payload too large');
  const head = Buffer.from([0xff, marker, (payload.length + 2) >> 8, (payload.length + 2) & 0xff]);
  return Buffer.concat([jpeg.subarray(0, 2), head, payload, jpeg.subarray(2)]);
}

/** A big-endian TIFF header whose IFD0 has one ImageDescription entry pointing past the block. */
function malformedExifPayload(): Buffer {
  const tiff = Buffer.from([
    0x4d,
    0x4d,
    0x00,
    0x2a,
    0x00,
    0x00,
    0x00,
    0x08, // MM, 42, IFD0 at 8
    0x00,
    0x01, // one entry
    0x01,
    0x0e,
    0x00,
    0x02,
    0x00,
    0x00,
    0x10,
    0x00,
    0x00,
    0x00,
    0x7f,
    0x00, // 0x010e ASCII ×4096 at 0x7f00
    0x00,
    0x00,
    0x00,
    0x00, // no IFD1
  ]);
  return Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
}

export async function writeHostileFiles(dir: string): Promise<HostileFiles> {
  await mkdir(dir, { recursive: true });
  const files: HostileFiles = {
    pixelBomb: path.join(dir, 'pixel-bomb.png'),
    truncatedJpeg: path.join(dir, 'truncated.jpg'),
    randomBytes: path.join(dir, 'random-bytes.jpg'),
    empty: path.join(dir, 'empty.jpg'),
    hugeExif: path.join(dir, 'huge-exif.jpg'),
    mislabelledPng: path.join(dir, 'really-a-png.jpg'),
    textAsPng: path.join(dir, 'not-an-image.png'),
    malformedExif: path.join(dir, 'malformed-exif.jpg'),
  };

  const noise = await sharp({
    create: { width: 800, height: 600, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  })
    .jpeg({ quality: 85 })
    .toBuffer();
  const small = sharp({ create: { width: 96, height: 64, channels: 3, background: { r: 40, g: 90, b: 160 } } });

  let hugeExif: Buffer = await small
    .clone()
    .jpeg()
    .withExif({ IFD0: { ImageDescription: 'D'.repeat(HUGE_DESCRIPTION_CHARS), Make: 'Hostile', Model: 'Huge EXIF' } })
    .toBuffer();
  for (let i = 0; i < 8; i++) hugeExif = insertJpegSegment(hugeExif, 0xfe, Buffer.alloc(60_000, 0x41 + i));

  await Promise.all([
    writeFile(files.pixelBomb, craftPixelBombPng()),
    writeFile(files.truncatedJpeg, noise.subarray(0, Math.floor(noise.length / 2))),
    writeFile(files.randomBytes, pseudoRandomBytes(4096)),
    writeFile(files.empty, Buffer.alloc(0)),
    writeFile(files.hugeExif, hugeExif),
    writeFile(files.mislabelledPng, await small.clone().png().toBuffer()),
    writeFile(files.textAsPng, 'This is not a picture.\nJust some text, named .png by mistake.\n'),
    writeFile(files.malformedExif, insertJpegSegment(await small.clone().jpeg().toBuffer(), 0xe1, malformedExifPayload())),
  ]);
  return files;
}
