/**
 * Shared fixtures of the metadata extraction tests (metadata.*.test.ts): a scratch folder with
 * the hostile files, the corpus, and independent readings to check the extractor against.
 * `setUpImagingFixtures()` registers the hooks; `tmp` and `hostile` are live bindings.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as exifrModule from 'exifr';
import sharp from 'sharp';
import { afterAll, beforeAll, expect } from 'vitest';
import { PermanentJobError } from '../../shared/jobs/errors';
import { writeHostileFiles, type HostileFiles } from '../../../test/support/hostile-files';
import { extractPhotoMetadata, type ExtractPhotoMetadataInput, type PhotoMetadata } from './metadata';

export const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '../../..');
export const corpus = path.resolve(repoRoot, '../shared/corpus/exif-samples');
export const exifrParse: typeof exifrModule.parse =
  typeof exifrModule.parse === 'function' ? exifrModule.parse : (exifrModule as any).default.parse;

export const MB = 1024 * 1024;
export let tmp: string;
export let hostile: HostileFiles;
let thumbCounter = 0;

export function setUpImagingFixtures(): void {
  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'circa-imaging-'));
    hostile = await writeHostileFiles(path.join(tmp, 'hostile'));
  });
  afterAll(async () => {
    await rm(tmp, { recursive: true, force: true });
  });
}

export function thumbPath(): string {
  thumbCounter++;
  return path.join(tmp, 'thumbs', `${thumbCounter}.jpg`);
}

export function extract(file: string, overrides: Partial<ExtractPhotoMetadataInput> = {}): Promise<PhotoMetadata> {
  return extractPhotoMetadata({
    path: file,
    expected: null,
    thumbnailPath: thumbPath(),
    maxFileBytes: 100 * MB,
    maxInputPixels: 100_000_000,
    ...overrides,
  });
}

export async function permanentError(promise: Promise<unknown>): Promise<PermanentJobError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, 'expected a PermanentJobError').toBeInstanceOf(PermanentJobError);
  return err as PermanentJobError;
}

export async function listCorpus(): Promise<string[]> {
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
export async function independentDimensions(file: string, bytes: Buffer): Promise<[number, number]> {
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

export async function greyThumb(file: string, size = 16): Promise<Buffer> {
  return sharp(file).greyscale().resize(size, size, { fit: 'fill' }).raw().toBuffer();
}

export function meanAbsDiff(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i] - b[i]);
  return sum / a.length;
}

// -----------------------------------------------------------------------------------------------
