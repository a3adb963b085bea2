import { stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { HUGE_DESCRIPTION_CHARS } from '../../../test/support/hostile-files';
import { MAX_TEXT_CHARS } from './exif';
import { sha256File } from '../../shared/node/hash';
import { serializeJobError } from '../../shared/jobs/errors';
import { extractPhotoMetadata, photoMetadataSchema } from './metadata';

import { corpus, MB, tmp, hostile, extract, permanentError, setUpImagingFixtures } from './metadata-test-kit';

setUpImagingFixtures();

describe('hostile files', () => {
  it('a pixel bomb is refused before decoding, with its dimensions', async () => {
    expect((await stat(hostile.pixelBomb)).size).toBeLessThan(4096);
    const err = await permanentError(extract(hostile.pixelBomb));
    expect(err.message).toBe('Image too large: 50000×50000 px exceeds the 100 MP limit');
  });

  it("a truncated JPEG fails in plain words; the decoder's own text stays in the technical details", async () => {
    const err = await permanentError(extract(hostile.truncatedJpeg));
    expect(err.message).toBe('Truncated or corrupt JPEG: the file ends before its image data does');
    expect(err.message).not.toMatch(/vips/i);
    const serialized = serializeJobError(err);
    expect(serialized.kind).toBe('permanent');
    expect(serialized.stack).toMatch(/^Caused by: VipsJpeg: premature end of JPEG image/);
  });

  it('random bytes named .jpg are not an image', async () => {
    const err = await permanentError(extract(hostile.randomBytes));
    expect(err.message).toMatch(
      /^Not an image: the file's bytes are not a supported image format \(first bytes 3f( [0-9a-f]{2}){7} …\)$/,
    );
  });

  it('a zero-byte file is empty', async () => {
    const err = await permanentError(extract(hostile.empty));
    expect(err.message).toBe('File is empty (0 bytes)');
  });

  it('a text file named .png is not an image', async () => {
    const err = await permanentError(extract(hostile.textAsPng));
    expect(err.message).toBe(
      "Not an image: the file's bytes are not a supported image format (first bytes 54 68 69 73 20 69 73 20 …)",
    );
  });

  it('a PNG named .jpg is read as the PNG it is', async () => {
    const r = await extract(hostile.mislabelledPng);
    expect([r.format, r.width, r.height]).toEqual(['png', 96, 64]);
    expect((await sharp(r.thumbnail.path).metadata()).format).toBe('jpeg');
  });

  it('a huge EXIF block and many big segments are read, capped and kept small', async () => {
    expect((await stat(hostile.hugeExif)).size).toBeGreaterThan(HUGE_DESCRIPTION_CHARS + 8 * 60_000);
    const r = await extract(hostile.hugeExif);
    expect(r.exif.make).toBe('Hostile');
    expect(r.exif.description).toHaveLength(MAX_TEXT_CHARS);
    expect(r.exif.description!.endsWith('…')).toBe(true);
    expect(JSON.stringify(r).length).toBeLessThan(8 * 1024);
    expect([r.width, r.height]).toEqual([96, 64]);
  });

  it('a malformed EXIF block does not fail the job: exifError is set and the image is still read', async () => {
    const r = await extract(hostile.malformedExif);
    expect(r.exifError).toMatch(/^EXIF: .*outside/);
    expect(r.exif.description).toBeNull();
    expect([r.width, r.height, r.thumbnail.width]).toEqual([96, 64, 96]);
    expect(photoMetadataSchema.parse(r)).toEqual(r);
  });

  it('a truncated PNG fails as corrupt', async () => {
    const png = await sharp(path.join(corpus, 'jpg/exif-org/canon-ixus.jpg')).png().toBuffer();
    const file = path.join(tmp, 'truncated.png');
    await writeFile(file, png.subarray(0, Math.floor(png.length / 2)));
    const err = await permanentError(extract(file));
    expect(err.message).toMatch(/^Truncated or corrupt PNG: /);
    expect(err.message).not.toMatch(/vips|libspng|png_/i);
  });

  it('a HEIC file is recognised and refused as unsupported', async () => {
    const file = path.join(tmp, 'photo.heic');
    const head = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic\0\0\0\0mif1heic', 'latin1')]);
    await writeFile(file, Buffer.concat([head, Buffer.alloc(200)]));
    const err = await permanentError(extract(file));
    expect(err.message).toMatch(/^Unsupported image format: HEIC/);
  });
});

// -----------------------------------------------------------------------------------------------

describe('identity, limits and file errors', () => {
  const canon = () => path.join(corpus, 'jpg/Canon_40D.jpg');

  it('accepts a file matching the size and hash recorded at import (hash compared case-insensitively)', async () => {
    const expected = await sha256File(canon());
    const r = await extract(canon(), { expected: { size: expected.size, sha256: expected.sha256.toUpperCase() } });
    expect([r.sha256, r.size]).toEqual([expected.sha256, expected.size]);
  });

  it('refuses a file whose size changed since import', async () => {
    const { size, sha256 } = await sha256File(canon());
    const err = await permanentError(extract(canon(), { expected: { size: size + 1, sha256 } }));
    expect(err.message).toBe(`File changed since import: size ${size} ≠ ${size + 1} bytes recorded at import`);
  });

  it('refuses a file whose content changed since import', async () => {
    const { size } = await sha256File(canon());
    const err = await permanentError(extract(canon(), { expected: { size, sha256: 'ab'.repeat(32) } }));
    expect(err.message).toMatch(
      /^File changed since import: hash differs \(sha256 [0-9a-f]{12}… ≠ abababababab… recorded at import\)$/,
    );
  });

  it('refuses a missing file with its path', async () => {
    const missing = path.join(tmp, 'gone', 'photo.jpg');
    const err = await permanentError(extract(missing));
    expect(err.message).toBe(`File not found at ${missing}`);
  });

  it('refuses a folder', async () => {
    const err = await permanentError(extract(tmp));
    expect(err.message).toMatch(/^Not a file: /);
  });

  it('refuses a file larger than maxFileBytes before reading it', async () => {
    const err = await permanentError(extract(canon(), { maxFileBytes: 1000 }));
    expect(err.message).toBe('File too large: 7.8 KB exceeds the 1000 B limit');
  });

  it('refuses an image with more pixels than maxInputPixels', async () => {
    const err = await permanentError(extract(canon(), { maxInputPixels: 5000 }));
    expect(err.message).toBe('Image too large: 100×68 px exceeds the 5,000 px limit');
  });

  it('stops at once on an aborted signal, writing nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    const target = path.join(tmp, 'aborted', 'thumb.jpg');
    const err = await extractPhotoMetadata(
      { path: canon(), expected: null, thumbnailPath: target, maxFileBytes: MB, maxInputPixels: 1e8 },
      { signal: controller.signal },
    ).catch((e: unknown) => e);
    expect((err as Error).name).toBe('AbortError');
    await expect(stat(target)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

// -----------------------------------------------------------------------------------------------
