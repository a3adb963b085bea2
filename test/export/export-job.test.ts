/**
 * The `export` job end to end (real core, real worker processes, real ExifTool): CSV, JSON and XMP
 * of a library spanning several checkpointed steps, read back and compared with the database.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExifTool } from 'exiftool-vendored';
import type { Core } from '../../src/main/core/core';
import { parseCircaExport } from '../../src/shared/export/export-record';
import { circaExifTool } from '../support/exiftool';
import { CSV_COLUMNS } from '../../src/shared/export/export-record';
import { toIsoDate } from '../../src/shared/dating';
import { STEP_PHOTOS } from '../../src/main/export/export-job';
import { openTestCore, tempDir, waitForStatus } from '../support/core';
import { seedPhotos } from '../support/seed';
import { parseCsv } from '../support/csv';

let core: Core;
let ids: number[];
let exiftool: ExifTool;
const N = STEP_PHOTOS + 37; // two steps, each read in several slices

beforeAll(() => {
  core = openTestCore({ concurrency: 1 });
  ids = seedPhotos(core, N, { evidencePerPhoto: 2 });
  core.db.immediate(() => ids.forEach((id) => core.evidence.recompute(id)));
  const notes = core.db.sqlite.prepare('UPDATE photos SET notes = ? WHERE id = ?');
  notes.run('=HYPERLINK("http://evil","click")', ids[0]);
  notes.run('Grandma, "Joe" & Łódź\non the back', ids[1]);
  notes.run('-5 degrees', ids[2]);
  core.evidenceService.addManual(ids[3], { type: 'between', from: 1931, to: 1931 }, 'a whole year');
  core.evidenceService.addManual(ids[4], { type: 'between', from: 1935, to: 1942 }, 'a range &amp; a\nsecond line');
  exiftool = circaExifTool();
});
afterAll(async () => {
  await exiftool.end();
  await core.close();
});

async function runExport(payload: Record<string, unknown>) {
  const { job } = core.jobs.enqueue({ type: 'export', payload });
  return waitForStatus(core, job.id, ['success', 'failed', 'cancelled'], 120_000);
}

describe('export job', () => {
  it('writes CSV and JSON of the whole library in checkpointed steps; both read back equal to the database', async () => {
    const dest = path.join(tempDir(), 'out');
    const row = await runExport({ destination: dest, formats: ['csv', 'json'] });
    expect(row.status, row.error_message ?? '').toBe('success');
    expect(row.result_summary).toMatch(
      new RegExp(
        `^Exported ${N.toLocaleString('en')} photos to circa-export-\\d{8}-\\d{6}\\.csv, circa-export-\\d{8}-\\d{6}\\.json in ${dest}$`,
      ),
    );
    const trail = core.jobs.queries.auditTrail(row.id).map((a) => a.event);
    expect(trail.filter((e) => e === 'claimed')).toHaveLength(1); // one lease, several steps
    const files = fs.readdirSync(dest).sort();
    expect(files).toHaveLength(2); // nothing partial left
    const csvText = fs.readFileSync(path.join(dest, files[0]), 'utf8');
    const jsonText = fs.readFileSync(path.join(dest, files[1]), 'utf8');

    // JSON: the documented schema, every photo once, equal to the database.
    const doc = parseCircaExport(jsonText);
    expect(doc.photos.map((p) => p.id)).toEqual(ids);
    const photo = core.db.sqlite.prepare('SELECT * FROM photos WHERE id = ?');
    const evidence = core.db.sqlite.prepare('SELECT * FROM evidence WHERE photo_id = ? ORDER BY id');
    for (const rec of doc.photos) {
      const p = photo.get(rec.id) as Record<string, any>;
      const e = JSON.parse(p.estimate);
      expect(rec).toMatchObject({ path: p.path, sha256: p.sha256, notes: p.notes, size: p.size });
      expect(rec.estimate).toMatchObject({
        status: p.estimate_status,
        edtf: e.edtf,
        dacs: e.dacs,
        earliest: p.estimate_earliest && toIsoDate(p.estimate_earliest),
        latest: p.estimate_latest && toIsoDate(p.estimate_latest),
        explanation: e.explanation,
      });
      const rows = evidence.all(rec.id) as Record<string, any>[];
      expect(rec.evidence.map((x) => [x.id, x.source, x.reviewStatus, x.earliest, x.latest, x.superseded])).toEqual(
        rows.map((r) => [
          r.id,
          r.source,
          r.review_status,
          r.earliest && toIsoDate(r.earliest),
          r.latest && toIsoDate(r.latest),
          r.superseded_at != null,
        ]),
      );
    }
    expect(doc.photos[4].manualConstraints).toEqual([
      expect.objectContaining({
        constraint: { type: 'between', from: 1935, to: 1942 },
        note: 'a range &amp; a\nsecond line',
        reviewStatus: 'accepted',
      }),
    ]);

    // CSV: a BOM, the header, one row per photo; text survives quoting; formulas are defused.
    expect(csvText.startsWith('\ufeff')).toBe(true);
    const [header, ...body] = parseCsv(csvText.slice(1));
    expect(header).toEqual([...CSV_COLUMNS]);
    expect(body).toHaveLength(N);
    const byId = new Map(body.map((r) => [Number(r[0]), r]));
    expect(byId.get(ids[0])![12]).toBe(`'=HYPERLINK("http://evil","click")`);
    expect(byId.get(ids[1])![12]).toBe('Grandma, "Joe" & Łódź\non the back');
    expect(byId.get(ids[2])![12]).toBe("'-5 degrees");
    const four = byId.get(ids[4])!;
    expect(four.slice(4, 9)).toEqual([
      doc.photos[4].estimate.edtf,
      doc.photos[4].estimate.dacs,
      '1935-01-01',
      '1942-12-31',
      'needs_review',
    ]);
    expect(four.slice(10, 12)).toEqual(['1', '2']); // the manual constraint accepted; the two seeded findings pending
    // Each finding's EDTF in the JSON, and those not rejected in the CSV's EDTF column.
    const findings = doc.photos[4].evidence.filter((e) => !e.superseded);
    expect(findings.find((e) => e.source === 'manual')?.edtf).toBe('1935/1942');
    const edtfColumn = CSV_COLUMNS.indexOf('evidence (EDTF)');
    expect(four[edtfColumn]).toBe(
      findings
        .filter((e) => e.reviewStatus !== 'rejected' && e.edtf)
        .map((e) => e.edtf)
        .join('; '),
    );
    expect(four[edtfColumn]).toContain('1935/1942');
  });

  it("writes XMP sidecars with the precision that is known, and Circa's namespace", async () => {
    const dest = path.join(tempDir(), 'xmp-out');
    const row = await runExport({ destination: dest, formats: ['xmp'], scope: { kind: 'ids', ids: ids.slice(3, 5) } });
    expect(row.status, row.error_message ?? '').toBe('success');
    expect(row.result_summary).toContain('2 XMP sidecars');
    const [dir] = fs.readdirSync(dest);
    expect(dir).toMatch(/^circa-export-\d{8}-\d{6}-xmp$/);
    // Seeded as <index>.tif.
    const [year, range] = ['3.tif.xmp', '4.tif.xmp'].map((f) => path.join(dest, dir, f));
    const y = (await exiftool.read(year, { readArgs: ['-G1'] })) as Record<string, unknown>;
    expect(String(y['XMP-photoshop:DateCreated'])).toBe('1931');
    expect(String(y['XMP-dc:Date'])).toBe('1931');
    expect(String(y['XMP-circa:EDTF'])).toBe('1931');
    const r = (await exiftool.read(range, { readArgs: ['-G1'] })) as Record<string, unknown>;
    expect(r['XMP-photoshop:DateCreated']).toBeUndefined(); // 1935–1942: no single date is true
    expect(r).toMatchObject({ 'XMP-circa:EDTF': '1935/1942', 'XMP-circa:DACS': expect.stringContaining('1935') });
    // Written in one ExifTool command with other sidecars: an '&' and a line break in a note arrive as they are.
    expect(r['XMP-circa:Evidence']).toEqual(
      expect.arrayContaining([
        'accepted manual bound 1935-01-01 – 1942-12-31 (EDTF 1935/1942): Between 1935 and 1942 — a range &amp; a\nsecond line',
      ]),
    );
  });

  it('exports a filter, and a folder that is not there is a clear failure', async () => {
    const dest = path.join(tempDir(), 'filtered');
    const row = await runExport({
      destination: dest,
      formats: ['json'],
      scope: { kind: 'filter', filter: 'all', search: 'Łódź' },
    });
    expect(row.status).toBe('success');
    const [file] = fs.readdirSync(dest);
    expect(parseCircaExport(fs.readFileSync(path.join(dest, file), 'utf8')).photos.map((p) => p.id)).toEqual([ids[1]]);
    const missing = await runExport({ destination: '/no/such/place/exports', formats: ['csv'] });
    expect(missing).toMatchObject({ status: 'failed', error_message: 'The export folder /no/such/place/exports does not exist' });
  });
});
