/**
 * Images shaped like archival scans, generated at test time (nothing binary is committed): a true
 * 16-bit PNG written byte by byte (sharp's own writers cannot be handed 16-bit values directly),
 * and 16-bit TIFFs made from it. Used by the imaging tests (16-bit thumbnails, multi-page TIFFs)
 * and by the import bench's scan set.
 */
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { pngChunk } from './hostile-files';

/** A 16-bit PNG of `channels` (1 grey, 3 RGB) whose sample at (x, y, c) is `value(x, y, c)` (0–65535). */
export function encodePng16(
  width: number,
  height: number,
  channels: 1 | 3,
  value: (x: number, y: number, c: number) => number,
): Buffer {
  const rowBytes = 1 + width * channels * 2;
  const raw = Buffer.alloc(rowBytes * height); // filter byte 0 (none) on each row
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < channels; c++) raw.writeUInt16BE(value(x, y, c), y * rowBytes + 1 + (x * channels + c) * 2);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 16; // bit depth
  ihdr[9] = channels === 1 ? 0 : 2; // grey or RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw, { level: 1 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A horizontal 16-bit ramp from `from` to `to` (0–65535), the same in every channel and row. */
export function gradientPng16(width: number, height: number, channels: 1 | 3, from = 0, to = 65535): Buffer {
  return encodePng16(width, height, channels, (x) => Math.round(from + ((to - from) * x) / (width - 1)));
}

/** The same pixels as a 16-bit TIFF (sharp keeps 16 bits only when told the 16-bit colourspace). */
export function tiff16(png16: Buffer, channels: 1 | 3, compression: 'lzw' | 'none' | 'deflate' = 'lzw'): Promise<Buffer> {
  return sharp(png16)
    .toColourspace(channels === 1 ? 'grey16' : 'rgb16')
    .tiff({ compression })
    .toBuffer();
}

/** A multi-page TIFF (LZW) of `greys.length` pages, each `width`×`height` of one grey level (0–255). */
export async function writeMultiPageTiff(file: string, greys: number[], width: number, height: number): Promise<void> {
  const page = width * height * 3;
  const raw = Buffer.alloc(page * greys.length);
  greys.forEach((v, p) => raw.fill(v, p * page, (p + 1) * page));
  await sharp(raw, { raw: { width, height: height * greys.length, channels: 3, pageHeight: height } })
    .tiff({ compression: 'lzw' })
    .toFile(file);
}
