/**
 * Exports onto a disk that fills up, on a real small disk (a tmpfs) and through real worker
 * processes and ExifTool: the job fails with a plain "the disk is full" message, no file (or
 * sidecar folder) appears under a final name, the unfinished files are removed, the library is
 * exactly as it was, and the app keeps answering.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { STEP_PHOTOS } from '../../src/main/export/export-job';
import { openTestCore, waitForStatus } from '../support/core';
import { seedPhotos } from '../support/seed';
import { mountSmallDisk, smallDiskUnavailable, type SmallDisk } from '../support/small-disk';

const unavailable = smallDiskUnavailable();
let core: Core;
let ids: number[];
let disk: SmallDisk | null = null;

beforeAll(() => {
  if (unavailable) return;
  core = openTestCore({ concurrency: 1 });
  ids = seedPhotos(core, STEP_PHOTOS + 500, { evidencePerPhoto: 3 });
  core.db.immediate(() => ids.forEach((id) => core.evidence.recompute(id)));
});
afterAll(async () => {
  await core?.close();
});
afterEach(() => {
  disk?.unmount();
  disk = null;
});

/** Everything the library holds about its photos, as one hash. */
const libraryHash = () => {
  const h = crypto.createHash('sha256');
  for (const table of ['photos', 'evidence', 'settings'])
    h.update(JSON.stringify(core.db.sqlite.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all()));
  return h.digest('hex');
};

async function runExport(payload: Record<string, unknown>) {
  const { job } = core.jobs.enqueue({ type: 'export', payload });
  return waitForStatus(core, job.id, ['success', 'failed', 'cancelled'], 120_000);
}

describe.skipIf(unavailable)(`export onto a full disk${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  it.each([
    ['CSV + JSON, no room at all', ['csv', 'json'], 0, 'all'],
    ['CSV + JSON, room for the first step only', ['csv', 'json'], 1_500_000, 'all'],
    ['XMP sidecars, room for some of them', ['xmp'], 200_000, 'ids'],
    ['CSV + XMP, room for the CSV but not every sidecar', ['csv', 'xmp'], 400_000, 'ids'],
  ] as const)('%s: a plain failure, nothing under a final name, the library untouched', async (_what, formats, room, scope) => {
    disk = mountSmallDisk(12);
    disk.fill(room);
    const before = libraryHash();
    const row = await runExport({
      destination: disk.dir,
      formats,
      scope: scope === 'all' ? { kind: 'all' } : { kind: 'ids', ids: ids.slice(0, 300) },
    });
    expect(row.status, row.result_summary ?? '').toBe('failed');
    expect(row.error_message).toBe(
      `The disk is full: the export did not fit in ${disk.dir}. Free some space there or choose another folder.`,
    );
    expect(row.retry_count).toBe(0); // a retry cannot free space
    // Nothing but the test's filler: no file or sidecar folder under a final name, no unfinished file.
    expect(fs.readdirSync(disk.dir)).toEqual(['filler.bin']);
    expect(libraryHash()).toBe(before);
    expect((await core.dispatch('jobs.counts', {})).ok).toBe(true);
    expect(await core.dispatch('photos.list', { limit: 1 })).toMatchObject({ ok: true, value: { total: ids.length } });
  });

  it('with space freed, the same export into the same folder then succeeds', async () => {
    disk = mountSmallDisk(12);
    disk.fill(0);
    expect((await runExport({ destination: disk.dir, formats: ['csv', 'json'] })).status).toBe('failed');
    disk.unfill();
    const row = await runExport({ destination: disk.dir, formats: ['csv', 'json'] });
    expect(row.status, row.error_message ?? '').toBe('success');
    expect(fs.readdirSync(disk.dir).filter((f) => f.startsWith('.'))).toEqual([]);
  });
});
