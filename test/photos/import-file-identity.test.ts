/**
 * A file is hashed once per import (issue 31 item 4): main hashes it and keeps its stamp, the
 * metadata job hands the stamp to the worker, and the worker trusts the recorded hash while the
 * file's stamp holds (src/shared/jobs/file-stamp.ts). These hold the safety that second hash gave:
 * a file changed between the import and its metadata job is still caught, through the whole path.
 * (A copy of the same bytes at a new path is still known by main's hash: import.test.ts "names
 * each copy not added…", relink.test.ts.)
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { stampOf } from '../../src/shared/node/file-stamp-of';
import { appPaths } from '../../src/main/app-paths';
import { openTestCore, tempDir, waitFor } from '../support/core';

const CORPUS = path.resolve(appPaths().root, '..', 'shared', 'corpus', 'exif-samples');
/** A whole second, so that utimes can put it back to the nanosecond. */
const TAKEN = new Date('2015-08-01T12:00:00Z');

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

function folderOf(names: string[]): string {
  const dir = tempDir('circa-identity-');
  for (const n of names) {
    fs.copyFileSync(path.join(CORPUS, 'jpg', n), path.join(dir, n));
    fs.utimesSync(path.join(dir, n), TAKEN, TAKEN);
  }
  return dir;
}

/** Imports with the queue paused: the photos' metadata jobs wait, each with its stamp kept. */
async function importPaused(c: Core, dir: string): Promise<void> {
  // The copies were just written: stamps are kept for them at once (the app waits 3 s; see file-stamp.ts).
  c.importer.stampSettledAfterMs = 0;
  c.runner!.setPaused(true);
  c.importer.start([dir]);
  await waitFor(() => c.importer.status()?.status === 'done', 30_000, 'import');
}

const photoAt = (c: Core, file: string) =>
  c.photos.list({ sort: 'filename', filter: 'all', limit: 10 }).items.find((p) => p.filename === path.basename(file))!;

describe('a file hashed once per import', () => {
  it('the metadata job hands its worker the stamp main took while hashing, once (a retry hashes)', async () => {
    const dir = folderOf(['Canon_40D.jpg']);
    const file = path.join(dir, 'Canon_40D.jpg');
    core = openTestCore();
    await importPaused(core, dir);
    const photo = photoAt(core, file);
    const half = core.jobs.registry.get('metadata')!.half;
    const job = { id: 1, attempt: 1, payload: { photoId: photo.id }, subject: `photo:${photo.id}` };
    const signal = new AbortController().signal;
    const first = (await half.load(job, { signal })) as { expected: { stamp?: unknown } };
    expect(first.expected.stamp).toEqual(stampOf(fs.statSync(file, { bigint: true })));
    const again = (await half.load({ ...job, attempt: 2 }, { signal })) as { expected: { stamp?: unknown } };
    expect(again.expected.stamp).toBeUndefined();
  });

  it('a photo rewritten after its import to the same size, its modification time put back, fails as changed; the others are read', async () => {
    const dir = folderOf(['Canon_40D.jpg', 'Nikon_D70.jpg']);
    const changed = path.join(dir, 'Canon_40D.jpg');
    core = openTestCore();
    await importPaused(core, dir);
    const before = fs.statSync(changed, { bigint: true });
    const bytes = fs.readFileSync(changed);
    bytes[bytes.length - 200] ^= 0xff; // inside the picture's coded data
    fs.writeFileSync(changed, bytes);
    // Put the time back until the change time has moved on (one tick of the file system's clock).
    do fs.utimesSync(changed, TAKEN, TAKEN);
    while (fs.statSync(changed, { bigint: true }).ctimeNs === before.ctimeNs);
    const after = fs.statSync(changed, { bigint: true });
    expect([after.size, after.mtimeNs, after.ino]).toEqual([before.size, before.mtimeNs, before.ino]);

    core.runner!.setPaused(false);
    await waitFor(
      () => core!.photos.list({ sort: 'filename', filter: 'all', limit: 10 }).items.every((p) => p.metadataStatus !== 'pending'),
      50_000,
      'metadata jobs',
    );
    expect(photoAt(core, changed)).toMatchObject({ metadataStatus: 'failed' });
    expect(photoAt(core, changed).metadataError).toMatch(/^File changed since import: hash differs/);
    expect(photoAt(core, path.join(dir, 'Nikon_D70.jpg'))).toMatchObject({ metadataStatus: 'ready', camera: 'NIKON D70' });
  });
});
