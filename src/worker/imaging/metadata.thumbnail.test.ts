import { copyFile, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { sha256File } from '../../shared/node/hash';
import { photoMetadataSchema } from './metadata';
import { computePhash, hammingDistance } from './phash';

import { corpus, tmp, extract, meanAbsDiff, setUpImagingFixtures } from './metadata-test-kit';

setUpImagingFixtures();

describe('thumbnail', () => {
  it("looks like sharp's own one-step thumbnail, and its pHash is the thumbnail's", async () => {
    // The thumbnail is encoded from the decoded pixels the pHash is computed from; it must be the
    // picture a plain rotate → resize → JPEG pipeline gives.
    for (const name of ['jpg/Canon_40D.jpg', 'jpg/orientation/portrait_6.jpg', 'tiff/Arbitro.tiff']) {
      const file = path.join(corpus, name);
      const r = await extract(file);
      const oneStep = await sharp(file)
        .rotate()
        .resize({ width: 512, height: 512, fit: 'inside', withoutEnlargement: true })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: 80 })
        .toBuffer({ resolveWithObject: true });
      expect([r.thumbnail.width, r.thumbnail.height], name).toEqual([oneStep.info.width, oneStep.info.height]);
      const ours = await sharp(r.thumbnail.path).raw().toBuffer();
      const theirs = await sharp(oneStep.data).raw().toBuffer();
      expect(ours.length, name).toBe(theirs.length);
      expect(meanAbsDiff(ours, theirs), name).toBeLessThan(1.5);
      expect(hammingDistance(r.phash, await computePhash(await readFile(r.thumbnail.path))), name).toBeLessThanOrEqual(2);
    }
  });

  it('is written atomically into a new nested folder, replaces an old one, and leaves no temp file', async () => {
    const dir = path.join(tmp, 'library', 'thumbnails', 'ab', 'cd');
    const target = path.join(dir, 'photo.jpg');
    const first = await extract(path.join(corpus, 'jpg/exif-org/fujifilm-dx10.jpg'), { thumbnailPath: target });
    expect(first.thumbnail).toEqual({ path: target, width: 512, height: 384 });
    const second = await extract(path.join(corpus, 'jpg/Canon_40D.jpg'), { thumbnailPath: target });
    expect(second.thumbnail).toEqual({ path: target, width: 100, height: 68 });
    expect(await readdir(dir)).toEqual(['photo.jpg']);
    const meta = await sharp(target).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 100, 68]);
  });

  it('honours thumbnailLongSide and never enlarges', async () => {
    const big = await extract(path.join(corpus, 'jpg/exif-org/fujifilm-dx10.jpg'), { thumbnailLongSide: 128 });
    expect([big.thumbnail.width, big.thumbnail.height]).toEqual([128, 96]);
    const small = await extract(path.join(corpus, 'jpg/Fujifilm_FinePix_E500.jpg'), { thumbnailLongSide: 1024 });
    expect([small.thumbnail.width, small.thumbnail.height]).toEqual([59, 100]);
  });

  it('makes the thumbnail folder again when it was removed while the worker ran', async () => {
    const folder = path.join(tmp, 'shard-removed');
    const first = path.join(folder, 'a.jpg');
    await extract(path.join(corpus, 'jpg/Canon_40D.jpg'), { thumbnailPath: first });
    await rm(folder, { recursive: true });
    const second = path.join(folder, 'b.jpg');
    const r = await extract(path.join(corpus, 'jpg/Canon_40D.jpg'), { thumbnailPath: second });
    expect(r.thumbnail.path).toBe(second);
    expect((await readdir(folder)).sort()).toEqual(['b.jpg']); // no temporary file left behind
  });

  it('never modifies the photo', async () => {
    const copy = path.join(tmp, 'writable-copy.jpg');
    await copyFile(path.join(corpus, 'jpg/orientation/landscape_6.jpg'), copy);
    const before = await sha256File(copy);
    await extract(copy);
    expect(await sha256File(copy)).toEqual(before); // same bytes, same modification time
    // Even when asked to write the thumbnail over the photo itself.
    await expect(extract(copy, { thumbnailPath: copy })).rejects.toThrow(/Refusing to write the thumbnail over the photo/);
    expect(await sha256File(copy)).toEqual(before);
  });

  it('flattens transparency onto white and converts CMYK to sRGB', async () => {
    const png = path.join(tmp, 'transparent.png');
    await writeFile(
      png,
      await sharp({ create: { width: 40, height: 30, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
        .png()
        .toBuffer(),
    );
    const r = await extract(png);
    const { data, info } = await sharp(r.thumbnail.path).raw().toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(3);
    expect(Math.min(...data)).toBeGreaterThan(245);

    const cmyk = path.join(tmp, 'cmyk.jpg');
    await writeFile(
      cmyk,
      await sharp({ create: { width: 40, height: 30, channels: 3, background: '#c03030' } })
        .toColourspace('cmyk')
        .jpeg()
        .toBuffer(),
    );
    expect((await sharp(cmyk).metadata()).space).toBe('cmyk');
    const c = await extract(cmyk);
    const px = await sharp(c.thumbnail.path).raw().toBuffer({ resolveWithObject: true });
    expect(px.info.channels).toBe(3);
    expect(px.data[0]).toBeGreaterThan(150); // still red
    expect(px.data[1]).toBeLessThan(100);
  });
});

// -----------------------------------------------------------------------------------------------

describe('formats and scanners end to end', () => {
  it.each(['png', 'webp', 'gif', 'avif', 'tiff'] as const)('reads a %s file', async (format) => {
    const base = sharp({ create: { width: 64, height: 48, channels: 3, background: '#2a6' } });
    const encoded = format === 'avif' ? base.avif({ effort: 0 }) : base.toFormat(format);
    const file = path.join(tmp, `sample.${format}`);
    await writeFile(
      file,
      await encoded
        .withExif({ IFD0: { Make: 'Test', Model: format }, IFD2: { DateTimeOriginal: '1931:05:12 00:00:00' } })
        .toBuffer(),
    );
    const r = await extract(file);
    expect([r.format, r.width, r.height, r.thumbnail.width, r.thumbnail.height]).toEqual([format, 64, 48, 64, 48]);
    expect(photoMetadataSchema.parse(r)).toEqual(r);
    // libvips writes EXIF into PNG, WebP and AVIF (and into GIF and TIFF it does not).
    if (format === 'png' || format === 'webp' || format === 'avif') {
      expect(r.exif.dateTimeOriginal).toBe('1931:05:12 00:00:00');
    }
  });

  it('flags a scan made on an Epson flatbed with Epson Scan', async () => {
    const file = path.join(tmp, 'scan.jpg');
    await writeFile(
      file,
      await sharp({ create: { width: 64, height: 48, channels: 3, background: '#ddd' } })
        .jpeg()
        .withExif({
          IFD0: { Make: 'EPSON', Model: 'Perfection V600', Software: 'EPSON Scan', DateTime: '2019:02:03 10:11:12' },
          IFD2: { DateTimeDigitized: '2019:02:03 10:11:12' },
        })
        .toBuffer(),
    );
    const r = await extract(file);
    expect(r.scanner).toEqual({ isScan: true, reason: 'Software "EPSON Scan" is Epson Scan software' });
    expect(r.exif.createDate).toBe('2019:02:03 10:11:12');
    expect(r.exif.modifyDate).toBe('2019:02:03 10:11:12');
  });
});
