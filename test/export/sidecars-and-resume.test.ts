/**
 * Sidecars next to the originals (opt-in: existing sidecars are updated, originals never touched),
 * a step replayed after a crash (nothing written twice), and a cancelled export (no final files).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExifTool } from 'exiftool-vendored';
import type { Core } from '../../src/main/core/core';
import { exportHandler } from '../../src/worker/handlers/export';
import { parseCircaExport, type ExportPhotoRow } from '../../src/shared/export/export-record';
import { circaExifTool } from '../support/exiftool';
import { openTestCore, tempDir, waitFor, waitForStatus } from '../support/core';
import { seedPhotos } from '../support/seed';
import { parseCsv } from '../support/csv';

const CORPUS = path.resolve('../shared/corpus/exif-samples/jpg/Canon_40D.jpg');
let core: Core;
let exiftool: ExifTool;

beforeAll(() => {
  core = openTestCore({ concurrency: 1 });
  exiftool = circaExifTool();
});
afterAll(async () => {
  await exiftool.end();
  await core.close();
});

describe('sidecars next to the originals (opt-in)', () => {
  it("updates an existing sidecar keeping other tools' tags, creates photo.jpg.xmp otherwise, and never touches the original", async () => {
    const dir = tempDir('circa-originals-');
    const a = path.join(dir, 'a.jpg');
    const b = path.join(dir, 'b.jpg');
    fs.copyFileSync(CORPUS, a);
    fs.copyFileSync(CORPUS, b);
    fs.appendFileSync(b, 'x'); // another file (another hash)
    // Lightroom's sidecar for a.jpg: a caption and its own date.
    await exiftool.write(path.join(dir, 'a.xmp'), {
      'XMP-dc:Description': 'Uncle Fred at the pier',
      'XMP-photoshop:DateCreated': '1920',
    } as never);
    const before = [a, b].map((f) => ({ bytes: fs.readFileSync(f), mtime: fs.statSync(f).mtimeMs }));
    const insert = core.db.sqlite.prepare(
      `INSERT INTO photos (sha256, path, filename, size, metadata_status, imported_at, updated_at) VALUES (?, ?, ?, 1, 'ready', 0, 0) RETURNING id`,
    );
    const ids = [a, b].map((f, i) => (insert.get(String(i).repeat(64), f, path.basename(f)) as { id: number }).id);
    core.evidenceService.addManual(ids[1], { type: 'between', from: 1947, to: 1947 }, '');

    const { job } = core.jobs.enqueue({
      type: 'export',
      payload: { destination: tempDir(), formats: ['xmp'], scope: { kind: 'ids', ids }, sidecarsNextToOriginals: true },
    });
    const row = await waitForStatus(core, job.id, ['success', 'failed']);
    expect(row.status, row.error_message ?? '').toBe('success');
    expect(row.result_summary).toContain('2 XMP sidecars next to the originals');

    const lightroom = (await exiftool.read(path.join(dir, 'a.xmp'), { readArgs: ['-G1'] })) as Record<string, unknown>;
    expect(lightroom['XMP-dc:Description']).toBe('Uncle Fred at the pier');
    expect(String(lightroom['XMP-photoshop:DateCreated'])).toBe('1920'); // undated in Circa: theirs stays
    expect(lightroom['XMP-circa:Status']).toBe('undated');
    const created = (await exiftool.read(path.join(dir, 'b.jpg.xmp'), { readArgs: ['-G1'] })) as Record<string, unknown>;
    expect(String(created['XMP-photoshop:DateCreated'])).toBe('1947');
    expect(fs.existsSync(path.join(dir, 'a.jpg.xmp'))).toBe(false);
    // The originals: the same bytes, never rewritten.
    [a, b].forEach((f, i) => {
      expect(fs.readFileSync(f).equals(before[i].bytes)).toBe(true);
      expect(fs.statSync(f).mtimeMs).toBe(before[i].mtime);
    });
    expect(fs.readdirSync(dir).sort()).toEqual(['a.jpg', 'a.xmp', 'b.jpg', 'b.jpg.xmp']);
  });
});

describe('a step replayed after a crash', () => {
  const row = (id: number): ExportPhotoRow => ({
    id,
    path: `/p/${id}.jpg`,
    filename: `${id}.jpg`,
    sha256: String(id % 10).repeat(64),
    size: 1,
    format: 'jpeg',
    width: null,
    height: null,
    orientation: null,
    camera: null,
    exif_date: null,
    is_scan: null,
    missing: 0,
    metadata_status: 'ready',
    notes: `note ${id}`,
    exif: null,
    estimate_status: 'undated',
    estimate: null,
    imported_at: 0,
    evidence: [],
    sidecarName: `${id}.jpg.xmp`,
  });

  it('cuts the files back to the checkpoint, so no photo is written twice', async () => {
    const dest = tempDir();
    const files = (ext: string) => ({ temp: path.join(dest, `.x.${ext}.partial`), final: path.join(dest, `x.${ext}`) });
    const ctx = { jobId: 1, attempt: 1, signal: new AbortController().signal, progress: () => {} };
    const step = (photos: number[], resume: { csvBytes: number; jsonBytes: number; jsonItems: number }, last = false) =>
      exportHandler(
        {
          csv: files('csv'),
          json: files('json'),
          xmp: null,
          resume,
          photoChunks: [JSON.stringify(photos.map(row))],
          last,
          exportedAt: new Date(0).toISOString(),
          appVersion: 'test',
          progress: { done: 0, total: 6 },
        },
        ctx,
      );
    const one = await step([1, 2], { csvBytes: 0, jsonBytes: 0, jsonItems: 0 });
    await step([3, 4], one); // written, then the process died before its checkpoint committed
    const replayed = await step([3, 4], one); // the resumed attempt runs that step again
    const done = await step([5, 6], replayed, true);
    expect(done.files.map((f) => path.basename(f))).toEqual(['x.csv', 'x.json']);
    expect(parseCircaExport(fs.readFileSync(files('json').final, 'utf8')).photos.map((p) => p.id)).toEqual([1, 2, 3, 4, 5, 6]);
    const csv = parseCsv(fs.readFileSync(files('csv').final, 'utf8').slice(1));
    expect(csv.slice(1).map((r) => r[0])).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(fs.readdirSync(dest).sort()).toEqual(['x.csv', 'x.json']);
  });
});

describe('cancel', () => {
  it('a cancelled export leaves no file under a final name', async () => {
    seedPhotos(core, 600, { dir: '/cancel' });
    const dest = tempDir();
    const { job } = core.jobs.enqueue({ type: 'export', payload: { destination: dest, formats: ['csv', 'xmp'] } });
    await waitFor(() => (core.jobs.queries.get(job.id)!.progress ?? 0) > 0, 60_000, 'the export to make progress');
    core.jobs.cancel(job.id);
    const row = await waitForStatus(core, job.id, ['cancelled', 'success', 'failed'], 60_000);
    expect(row.status).toBe('cancelled');
    // Neither the CSV nor the sidecar folder: both stay under temporary names until the export completes.
    expect(fs.readdirSync(dest).filter((f) => !f.startsWith('.'))).toEqual([]);
    // What it left unfinished is cleared by the next export into that folder.
    const next = core.jobs.enqueue({
      type: 'export',
      payload: { destination: dest, formats: ['json'], scope: { kind: 'ids', ids: [1] } },
    });
    expect((await waitForStatus(core, next.job.id, ['success', 'failed'])).status).toBe('success');
    expect(fs.readdirSync(dest).filter((f) => f.startsWith('.'))).toEqual([]);
  });
});
