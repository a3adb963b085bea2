/**
 * The metadata job knows a file is still the one imported by its stamp (photo-source.ts,
 * src/shared/jobs/file-stamp.ts) instead of hashing it a second time — and a file changed since,
 * even to the same size with its modification time put back, is still caught. Both ways of reading
 * (whole, and streamed as a large scan is) are held to it.
 *
 * A recorded hash that no bytes have ('ab…') tells which check ran: only a check that trusted the
 * stamp returns it; a check that hashed refuses it.
 */
import { copyFile, readFile, rename, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FileStamp } from '../../shared/jobs/file-stamp';
import { stampOf } from '../../shared/node/file-stamp-of';
import { sha256File } from '../../shared/node/hash';
import { extractPhotoMetadata, type ExtractPhotoMetadataInput } from './metadata';
import { MB, corpus, permanentError, setUpImagingFixtures, thumbPath, tmp } from './metadata-test-kit';

setUpImagingFixtures();

const NO_BYTES_HAVE_THIS = 'ab'.repeat(32);
/** A whole second, so that utimes can put it back to the nanosecond. */
const IMPORTED_AT = new Date('2019-05-01T10:00:00Z');
let copies = 0;

async function importedCopy(): Promise<{ file: string; sha256: string; size: number; stamp: FileStamp }> {
  const file = path.join(tmp, `stamped-${++copies}.jpg`);
  await copyFile(path.join(corpus, 'jpg/Canon_40D.jpg'), file);
  await utimes(file, IMPORTED_AT, IMPORTED_AT);
  const { sha256, size } = await sha256File(file);
  return { file, sha256, size, stamp: stampOf(await stat(file, { bigint: true })) };
}

/** Puts the modification time back until the change time has moved past the stamp's (one clock tick). */
async function putTimeBack(file: string, stamp: FileStamp): Promise<void> {
  do await utimes(file, IMPORTED_AT, IMPORTED_AT);
  while ((await stat(file, { bigint: true })).ctimeNs === BigInt(stamp.ctimeNs));
  const now = stampOf(await stat(file, { bigint: true }));
  // The premise: everything but the change time (and, after a rename, the inode) is as recorded.
  expect([now.size, now.mtimeNs]).toEqual([stamp.size, stamp.mtimeNs]);
}

const readings = [
  { how: 'read whole', streamAboveBytes: undefined },
  { how: 'streamed', streamAboveBytes: 0 },
];

for (const { how, streamAboveBytes } of readings) {
  const run = (file: string, expected: ExtractPhotoMetadataInput['expected']) =>
    extractPhotoMetadata(
      { path: file, expected, thumbnailPath: thumbPath(), maxFileBytes: 100 * MB, maxInputPixels: 100_000_000 },
      { streamAboveBytes },
    );

  describe(`the file's stamp stands in for its hash (${how})`, () => {
    it('an unchanged file is taken at its stamp: the recorded hash is not computed again, and every other output is the same', async () => {
      const { file, size, sha256, stamp } = await importedCopy();
      const trusted = await run(file, { size, sha256: NO_BYTES_HAVE_THIS, stamp });
      expect(trusted.sha256).toBe(NO_BYTES_HAVE_THIS);
      const stamped = await run(file, { size, sha256, stamp });
      const hashed = await run(file, { size, sha256 });
      const { thumbnail: a, ...restStamped } = stamped;
      const { thumbnail: b, ...restHashed } = hashed;
      expect(restStamped).toEqual(restHashed);
      expect([a.width, a.height]).toEqual([b.width, b.height]);
      expect(await readFile(a.path)).toEqual(await readFile(b.path));
    });

    it('a file rewritten in place to the same size, its modification time put back, is caught: its change time moved', async () => {
      const { file, size, sha256, stamp } = await importedCopy();
      const bytes = await readFile(file);
      bytes[bytes.length - 200] ^= 0xff; // inside the picture's coded data
      await writeFile(file, bytes);
      await putTimeBack(file, stamp);
      const err = await permanentError(run(file, { size, sha256, stamp }));
      expect(err.message).toMatch(/^File changed since import: hash differs/);
    });

    it('a file replaced by a rename, same size and time, is not trusted (another inode): it is hashed', async () => {
      const { file, size, stamp } = await importedCopy();
      await copyFile(file, `${file}.new`);
      await rename(`${file}.new`, file);
      await putTimeBack(file, stamp);
      const err = await permanentError(run(file, { size, sha256: NO_BYTES_HAVE_THIS, stamp }));
      expect(err.message).toMatch(/^File changed since import: hash differs/);
    });
  });
}
