/**
 * The metadata job's outputs, pinned: every corpus file and a few generated scans (16-bit PNG and
 * TIFF, transparency, a uniform border the hashes trim) are extracted and compared with what the
 * extraction gave when this file was written (metadata.golden.json): thumbnail bytes, size and
 * the seven duplicate hashes, the pHash, dimensions, orientation, format and the EXIF fields.
 * A change made for speed (issue 31 item 4) must leave every one of them as it was.
 *
 * When an output is meant to change (a new hash method, another JPEG quality), regenerate it with
 * `CIRCA_UPDATE_GOLDEN=1 npx vitest run src/worker/imaging/metadata.golden.test.ts` and say why
 * in the commit.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { xorshift32Bytes } from '../../../test/support/hostile-files';
import { encodePng16, gradientPng16, tiff16 } from '../../../test/support/scan-images';
import type { PhotoMetadata } from './metadata';
import { corpus, extract, here, listCorpus, setUpImagingFixtures, tmp } from './metadata-test-kit';

setUpImagingFixtures();

const GOLDEN = path.join(here, 'metadata.golden.json');
const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

/** What is pinned of one extraction: everything but where the thumbnail went. */
async function digest(m: PhotoMetadata) {
  const { thumbnail, exif, sidecar, ...rest } = m;
  return {
    ...rest,
    thumbnail: { width: thumbnail.width, height: thumbnail.height, sha256: sha(await readFile(thumbnail.path)) },
    exif: sha(JSON.stringify(exif)),
    sidecar: sidecar == null ? null : sha(JSON.stringify({ ...sidecar, file: path.basename(sidecar.file) })),
  };
}

/** Generated inputs, the same bytes on every run. */
async function generated(dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const files: [string, Buffer][] = [];
  const ramp = gradientPng16(700, 120, 3);
  files.push(['gradient16.png', ramp]);
  files.push(['gradient16-grey.tif', await tiff16(gradientPng16(640, 200, 1, 9000, 51000), 1)]);
  // A 16-bit scan with detail: a smooth pattern in every channel.
  const pattern = encodePng16(900, 650, 3, (x, y, c) => Math.round(32767 + 30000 * Math.sin((x * (c + 1)) / 37 + y / 53)));
  files.push(['pattern16-uncompressed.tif', await tiff16(pattern, 3, 'none')]);
  // Blurred deterministic noise inside a white mount: the hashes trim the border.
  const noise = await sharp(xorshift32Bytes(800 * 600 * 3, 0x2545f491), { raw: { width: 800, height: 600, channels: 3 } })
    .blur(3)
    .extend({ top: 80, bottom: 80, left: 60, right: 60, background: '#ffffff' })
    .jpeg({ quality: 85 })
    .toBuffer();
  files.push(['mounted-print.jpg', noise]);
  // Transparency, flattened onto white.
  const alpha = await sharp(xorshift32Bytes(300 * 200 * 4, 0x1234567), { raw: { width: 300, height: 200, channels: 4 } })
    .png()
    .toBuffer();
  files.push(['transparent.png', alpha]);
  const out: string[] = [];
  for (const [name, bytes] of files) {
    await writeFile(path.join(dir, name), bytes);
    out.push(path.join(dir, name));
  }
  return out;
}

describe('metadata outputs are pinned', () => {
  it('gives every corpus file and generated scan the outputs recorded in metadata.golden.json', async () => {
    const files = [...(await listCorpus()), ...(await generated(path.join(tmp, 'golden')))];
    expect(files.length).toBeGreaterThan(40);
    const now: Record<string, unknown> = {};
    for (const file of files) {
      const key = file.startsWith(corpus) ? path.relative(corpus, file) : `generated/${path.basename(file)}`;
      now[key] = await digest(await extract(file));
    }
    if (process.env.CIRCA_UPDATE_GOLDEN === '1') {
      await writeFile(GOLDEN, `${JSON.stringify(now, null, 1)}\n`);
      return;
    }
    const pinned = JSON.parse(await readFile(GOLDEN, 'utf8')) as Record<string, unknown>;
    expect(Object.keys(now).sort()).toEqual(Object.keys(pinned).sort());
    for (const key of Object.keys(pinned)) expect(now[key], key).toEqual(pinned[key]);
  }, 600_000);
});
