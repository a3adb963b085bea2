import { execFile } from 'node:child_process';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import sharp, { type Sharp } from 'sharp';
import { describe, expect, it } from 'vitest';
import { MAX_TEXT_CHARS } from './exif';
import { photoMetadataSchema, type PhotoMetadata } from './metadata';
import { hammingDistance } from './phash';

import {
  here,
  repoRoot,
  corpus,
  tmp,
  extract,
  listCorpus,
  independentDimensions,
  greyThumb,
  meanAbsDiff,
  setUpImagingFixtures,
} from './metadata-test-kit';

setUpImagingFixtures();

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
