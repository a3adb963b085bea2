import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import * as exifrModule from 'exifr';
import sharp, { type Sharp } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermanentJobError } from '../../shared/jobs/errors';
import { HUGE_DESCRIPTION_CHARS, writeHostileFiles, type HostileFiles } from '../../../test/support/hostile-files';
import { MAX_TEXT_CHARS } from './exif';
import { sha256File } from './hash';
import { extractPhotoMetadata, photoMetadataSchema, type ExtractPhotoMetadataInput, type PhotoMetadata } from './metadata';
import { computePhash, hammingDistance } from './phash';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../..');
const corpus = path.resolve(repoRoot, '../shared/corpus/exif-samples');
const exifrParse: typeof exifrModule.parse =
  typeof exifrModule.parse === 'function' ? exifrModule.parse : (exifrModule as any).default.parse;

const MB = 1024 * 1024;
let tmp: string;
let hostile: HostileFiles;
let thumbCounter = 0;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'circa-imaging-'));
  hostile = await writeHostileFiles(path.join(tmp, 'hostile'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

function thumbPath(): string {
  thumbCounter++;
  return path.join(tmp, 'thumbs', `${thumbCounter}.jpg`);
}

function extract(file: string, overrides: Partial<ExtractPhotoMetadataInput> = {}): Promise<PhotoMetadata> {
  return extractPhotoMetadata({
    path: file,
    expected: null,
    thumbnailPath: thumbPath(),
    maxFileBytes: 100 * MB,
    maxInputPixels: 100_000_000,
    ...overrides,
  });
}

async function permanentError(promise: Promise<unknown>): Promise<PermanentJobError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, 'expected a PermanentJobError').toBeInstanceOf(PermanentJobError);
  return err as PermanentJobError;
}

async function listCorpus(): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(p);
      else if (/\.(jpe?g|tiff?)$/i.test(entry.name)) out.push(p);
    }
  };
  await walk(corpus);
  return out.sort();
}

/** Stored (pre-orientation) dimensions, read independently of sharp: JPEG SOFn / TIFF IFD0. */
async function independentDimensions(file: string, bytes: Buffer): Promise<[number, number]> {
  if (bytes[0] === 0xff && bytes[1] === 0xd8) {
    let off = 2;
    while (off + 4 < bytes.length) {
      if (bytes[off] !== 0xff) {
        off++;
        continue;
      }
      const marker = bytes[off + 1];
      if (marker === 0xff) {
        off++;
        continue;
      }
      const len = bytes.readUInt16BE(off + 2);
      const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
      if (isSof) return [bytes.readUInt16BE(off + 7), bytes.readUInt16BE(off + 5)];
      off += 2 + len;
    }
    throw new Error(`no SOF marker in ${file}`);
  }
  const tags = await exifrParse(bytes, { ifd0: { pick: ['ImageWidth', 'ImageHeight'] }, mergeOutput: true } as any);
  return [tags.ImageWidth, tags.ImageHeight];
}

async function greyThumb(file: string, size = 16): Promise<Buffer> {
  return sharp(file).greyscale().resize(size, size, { fit: 'fill' }).raw().toBuffer();
}

function meanAbsDiff(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i] - b[i]);
  return sum / a.length;
}

// -----------------------------------------------------------------------------------------------

describe('the corpus', () => {
  /**
   * Corpus files expected to fail, with the reason. None do: the seven files in jpg/invalid are
   * "invalid" only for EXIF parsers (no EXIF block, or EXIF written by Adobe Fireworks inside XMP
   * and Photoshop resources); their pixel data is intact and sharp decodes them with failOn 'error'.
   */
  const EXPECTED_FAILURES: Record<string, RegExp> = {};

  it('every JPEG and TIFF yields valid metadata with the right dimensions and a thumbnail', async () => {
    const files = await listCorpus();
    expect(files.length).toBeGreaterThanOrEqual(70);
    const failures: Record<string, string> = {};
    for (const file of files) {
      const rel = path.relative(corpus, file);
      let result: PhotoMetadata;
      try {
        result = await extract(file);
      } catch (err) {
        failures[rel] = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
        continue;
      }
      expect(photoMetadataSchema.parse(result), rel).toEqual(result);
      const bytes = await readFile(file);
      expect(result.size, rel).toBe(bytes.length);
      expect(result.format, rel).toBe(/\.tiff?$/i.test(file) ? 'tiff' : 'jpeg');
      expect([result.width, result.height], rel).toEqual(await independentDimensions(file, bytes));
      const swapped = (result.orientation ?? 1) >= 5;
      expect([result.displayWidth, result.displayHeight], rel).toEqual(
        swapped ? [result.height, result.width] : [result.width, result.height],
      );
      // Thumbnail: on disk, as reported, long side min(512, image), aspect ratio kept.
      const thumb = await sharp(result.thumbnail.path).metadata();
      expect([thumb.format, thumb.width, thumb.height], rel).toEqual(['jpeg', result.thumbnail.width, result.thumbnail.height]);
      const longSide = Math.max(result.displayWidth, result.displayHeight);
      expect(Math.max(thumb.width, thumb.height), rel).toBe(Math.min(512, longSide));
      const scale = Math.max(thumb.width, thumb.height) / longSide;
      expect(Math.abs(thumb.width - result.displayWidth * scale), rel).toBeLessThanOrEqual(1);
      expect(Math.abs(thumb.height - result.displayHeight * scale), rel).toBeLessThanOrEqual(1);
    }
    expect(Object.keys(failures).sort()).toEqual(Object.keys(EXPECTED_FAILURES).sort());
    for (const [rel, message] of Object.entries(failures)) expect(message).toMatch(EXPECTED_FAILURES[rel]);
  });

  it('reads the EXIF dates of a known camera file as the exact raw strings in the file (jpg/Canon_40D.jpg)', async () => {
    const file = path.join(corpus, 'jpg/Canon_40D.jpg');
    const r = await extract(file);
    expect(r.exif).toMatchObject({
      dateTimeOriginal: '2008:05:30 15:56:01',
      createDate: '2008:05:30 15:56:01',
      modifyDate: '2008:07:31 10:38:11',
      offsetTimeOriginal: null,
      make: 'Canon',
      model: 'Canon EOS 40D',
      software: 'GIMP 2.4.5',
      userComment: null, // 264 NUL bytes in the file
      gpsLatitude: null,
      gpsLongitude: null,
      orientation: 1,
      keywords: [],
    });
    expect([r.width, r.height, r.orientation]).toEqual([100, 68, 1]);
    expect(r.scanner).toEqual({ isScan: false, reason: null });
    expect(r.exifError).toBeNull();
    // The strings are byte-for-byte what the file holds (EXIF ASCII, NUL-terminated).
    const bytes = await readFile(file);
    expect(bytes.includes(Buffer.from('2008:05:30 15:56:01\0', 'latin1'))).toBe(true);
    expect(bytes.includes(Buffer.from('2008:07:31 10:38:11\0', 'latin1'))).toBe(true);
  });

  it('gives the same raw dates whatever the machine time zone (child processes with TZ set)', async () => {
    const script = path.join(tmp, 'tz-probe.mts');
    await writeFile(
      script,
      [
        `import { extractPhotoMetadata } from ${JSON.stringify(pathToFileURL(path.join(here, 'metadata.ts')).href)};`,
        `const [file, thumb] = process.argv.slice(2);`,
        `const r = await extractPhotoMetadata({ path: file, expected: null, thumbnailPath: thumb, maxFileBytes: 1e8, maxInputPixels: 1e8 });`,
        `process.stdout.write(JSON.stringify({ offset: new Date(2008, 4, 30).getTimezoneOffset(), exif: r.exif }));`,
      ].join('\n'),
    );
    const run = promisify(execFile);
    const file = path.join(corpus, 'jpg/Canon_40D.jpg');
    const probe = async (tz: string) => {
      const { stdout } = await run(
        process.execPath,
        ['--import', 'tsx', script, file, path.join(tmp, `tz-${tz.replace('/', '_')}.jpg`)],
        {
          cwd: repoRoot,
          env: { ...process.env, TZ: tz },
        },
      );
      return JSON.parse(stdout) as { offset: number; exif: PhotoMetadata['exif'] };
    };
    const [newYork, kiritimati] = [await probe('America/New_York'), await probe('Pacific/Kiritimati')];
    // The time zones really differ in the children (UTC-4 in May 2008 vs UTC+14)...
    expect([newYork.offset, kiritimati.offset]).toEqual([240, -840]);
    // ...and the dates do not move.
    expect(newYork.exif).toEqual(kiritimati.exif);
    expect(newYork.exif.dateTimeOriginal).toBe('2008:05:30 15:56:01');
    expect(newYork.exif).toEqual((await extract(file)).exif);
  });

  it('reads GPS coordinates as signed decimal degrees (jpg/gps/DSCN0010.jpg)', async () => {
    const r = await extract(path.join(corpus, 'jpg/gps/DSCN0010.jpg'));
    // 43° 28' 2.814" N, 11° 53' 6.456" E
    expect(r.exif.gpsLatitude).toBeCloseTo(43 + 28 / 60 + 2.814 / 3600, 6);
    expect(r.exif.gpsLongitude).toBeCloseTo(11 + 53 / 60 + 6.456 / 3600, 6);
    expect(r.exif.make).toBe('NIKON');
    expect(r.exif.dateTimeOriginal).toBe('2008:10:22 16:28:39');
    expect(r.exif.userComment).toBeNull(); // "ASCII" prefix followed by spaces only
  });

  it('reads every GPS sample as a position in Tuscany', async () => {
    const dir = path.join(corpus, 'jpg/gps');
    for (const name of (await readdir(dir)).filter((n) => n.endsWith('.jpg'))) {
      const r = await extract(path.join(dir, name));
      expect(r.exif.gpsLatitude, name).toBeGreaterThan(43.4);
      expect(r.exif.gpsLatitude, name).toBeLessThan(43.5);
      expect(r.exif.gpsLongitude, name).toBeGreaterThan(11.8);
      expect(r.exif.gpsLongitude, name).toBeLessThan(11.9);
    }
  });

  it('caps a long ImageDescription and keeps XMP fields (jpg/long_description.jpg)', async () => {
    const r = await extract(path.join(corpus, 'jpg/long_description.jpg'));
    expect(r.exif.description).toMatch(/^Operation Mountain Viper put the soldiers of A Company/);
    expect(r.exif.description!.length).toBeLessThanOrEqual(MAX_TEXT_CHARS);
    expect(r.exif.xmpDateCreated).toBe('2003-08-31');
    expect(r.exif.artist).toBe('SSG KYLE DAVIS');
  });
});

// -----------------------------------------------------------------------------------------------

describe('orientation', () => {
  it.each(['landscape', 'portrait'])('all 8 %s samples display like sample 1', async (kind) => {
    const [w, h] = kind === 'landscape' ? [600, 450] : [450, 600];
    const reference = await extract(path.join(corpus, `jpg/orientation/${kind}_1.jpg`));
    const refPixels = await greyThumb(reference.thumbnail.path);
    // Control: a mirrored copy of the reference is clearly distinguishable by this measure.
    const mirrored = await sharp(reference.thumbnail.path).flop().greyscale().resize(16, 16, { fit: 'fill' }).raw().toBuffer();
    const mirrorDiff = meanAbsDiff(refPixels, mirrored);
    expect(mirrorDiff).toBeGreaterThan(20);

    for (let o = 1; o <= 8; o++) {
      const r = await extract(path.join(corpus, `jpg/orientation/${kind}_${o}.jpg`));
      expect(r.orientation, `${kind}_${o}`).toBe(o);
      expect([r.width, r.height], `${kind}_${o} stored`).toEqual(o >= 5 ? [h, w] : [w, h]);
      expect([r.displayWidth, r.displayHeight], `${kind}_${o} displayed`).toEqual([w, h]);
      expect([r.thumbnail.width, r.thumbnail.height], `${kind}_${o} thumbnail`).toEqual(
        kind === 'landscape' ? [512, 384] : [384, 512],
      );
      const diff = meanAbsDiff(refPixels, await greyThumb(r.thumbnail.path));
      expect(diff, `${kind}_${o} looks like ${kind}_1`).toBeLessThan(mirrorDiff / 4);
      expect(hammingDistance(r.phash, reference.phash), `${kind}_${o} phash`).toBeLessThanOrEqual(4);
    }
  });

  it.each([1, 2, 3, 4, 5, 6, 7, 8])(
    'orientation %i: the red corner ends up top-left, green top-right, blue bottom-left',
    async (o) => {
      // The picture as it should be displayed: 90×60, white, with three coloured corners.
      const W = 90;
      const H = 60;
      const displayed = Buffer.alloc(W * H * 3, 255);
      const paint = (x0: number, y0: number, rgb: [number, number, number]) => {
        for (let y = y0; y < y0 + 20; y++) for (let x = x0; x < x0 + 20; x++) displayed.set(rgb, (y * W + x) * 3);
      };
      paint(0, 0, [220, 20, 20]);
      paint(W - 20, 0, [20, 200, 20]);
      paint(0, H - 20, [20, 20, 220]);

      // Store it transformed by the inverse of what orientation `o` asks a viewer to do.
      const step = async (img: { data: Buffer; w: number; h: number }, op: (s: Sharp) => Sharp) => {
        const { data, info } = await op(sharp(img.data, { raw: { width: img.w, height: img.h, channels: 3 } }))
          .raw()
          .toBuffer({ resolveWithObject: true });
        return { data, w: info.width, h: info.height };
      };
      let stored = { data: displayed, w: W, h: H };
      const rot = (deg: number) => (s: Sharp) => s.rotate(deg);
      const flop = (s: Sharp) => s.flop();
      const flip = (s: Sharp) => s.flip();
      const inverse: Record<number, Array<(s: Sharp) => Sharp>> = {
        1: [],
        2: [flop],
        3: [rot(180)],
        4: [flip],
        5: [rot(90), flop], // transpose
        6: [rot(270)],
        7: [rot(90), flip], // transverse
        8: [rot(90)],
      };
      for (const op of inverse[o]) stored = await step(stored, op);
      const file = path.join(tmp, `corners-${o}.jpg`);
      await writeFile(
        file,
        await sharp(stored.data, { raw: { width: stored.w, height: stored.h, channels: 3 } })
          .jpeg({ quality: 95 })
          .withMetadata({ orientation: o })
          .toBuffer(),
      );

      const r = await extract(file);
      expect(r.orientation).toBe(o);
      expect([r.width, r.height]).toEqual(o >= 5 ? [H, W] : [W, H]);
      expect([r.displayWidth, r.displayHeight]).toEqual([W, H]);
      const { data, info } = await sharp(r.thumbnail.path).raw().toBuffer({ resolveWithObject: true });
      expect([info.width, info.height]).toEqual([W, H]); // never enlarged, dimensions as displayed
      const at = (x: number, y: number) => Array.from(data.subarray((y * W + x) * 3, (y * W + x) * 3 + 3));
      const dominant = (rgb: number[]) => (['red', 'green', 'blue'] as const)[rgb.indexOf(Math.max(...rgb))];
      expect(dominant(at(8, 8)), 'top-left').toBe('red');
      expect(dominant(at(W - 9, 8)), 'top-right').toBe('green');
      expect(dominant(at(8, H - 9)), 'bottom-left').toBe('blue');
      expect(Math.min(...at(W - 9, H - 9)), 'bottom-right is white').toBeGreaterThan(200);
    },
  );
});

// -----------------------------------------------------------------------------------------------

describe('hostile files', () => {
  it('a pixel bomb is refused before decoding, with its dimensions', async () => {
    expect((await stat(hostile.pixelBomb)).size).toBeLessThan(4096);
    const err = await permanentError(extract(hostile.pixelBomb));
    expect(err.message).toBe('Image too large: 50000×50000 px exceeds the 100 MP limit');
  });

  it('a truncated JPEG fails with the decoder reason', async () => {
    const err = await permanentError(extract(hostile.truncatedJpeg));
    expect(err.message).toBe('Truncated or corrupt JPEG: VipsJpeg: premature end of JPEG image');
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
    expect(err.message).toBe('File too large: 7.8 KB exceeds the 1000 bytes limit');
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
