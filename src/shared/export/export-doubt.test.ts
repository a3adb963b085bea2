/** Exports keep the doubt (issue 28 item 6): no standard date from a pending or clue-only estimate. */
import { describe, expect, it } from 'vitest';
import { estimate, type EvidenceInput } from '../dating';
import { CSV_COLUMNS, csvCellsFor, toExportRecord, type ExportEvidenceRow, type ExportPhotoRow } from './export-record';
import { xmpTagsFor } from './xmp-tags';

function record(evidence: EvidenceInput[], details: Record<number, object> = {}) {
  const e = estimate(evidence);
  const rows: ExportEvidenceRow[] = evidence.map((ev) => ({
    id: ev.id,
    source: ev.source,
    kind: ev.kind,
    earliest: ev.earliest,
    latest: ev.latest,
    precision: null,
    confidence: ev.confidence,
    summary: ev.summary,
    details: details[ev.id] ? JSON.stringify(details[ev.id]) : null,
    job_id: null,
    attempt: null,
    review_status: ev.reviewStatus,
    review_note: null,
    superseded_at: null,
    created_at: 0,
    updated_at: 0,
  }));
  const row: ExportPhotoRow = {
    ...{ id: 1, path: '/p/a.jpg', filename: 'a.jpg', sha256: 'a'.repeat(64), size: 1, format: 'jpeg' },
    ...{ width: 1, height: 1, orientation: null, camera: null, exif_date: null, is_scan: null, missing: 0 },
    ...{ metadata_status: 'ready', notes: '', exif: null, estimate_status: e.status, estimate: JSON.stringify(e) },
    ...{ imported_at: 0, evidence: rows, sidecarName: 'a.jpg.xmp' },
  };
  return toExportRecord(row);
}
const cell = (r: ReturnType<typeof record>, column: (typeof CSV_COLUMNS)[number]) => csvCellsFor(r)[CSV_COLUMNS.indexOf(column)];

const heuristic: EvidenceInput = {
  ...{ id: 1, source: 'ai', kind: 'estimate', earliest: 19310101, latest: 19311231, confidence: 0.2 },
  ...{ reviewStatus: 'pending', summary: 'Visual analysis by heuristic: sepia' },
};
const caption = (reviewStatus: EvidenceInput['reviewStatus']): EvidenceInput => ({
  ...{ id: 2, source: 'ocr', kind: 'estimate', earliest: 19470101, latest: 19471231, confidence: 0.9 },
  ...{ reviewStatus, summary: 'Text reads “1947”' },
});

describe('exports keep the doubt', () => {
  it('a clue-only photo exports no date, and its clue only as a clue', () => {
    const r = record([heuristic]);
    expect(xmpTagsFor(r)['XMP-photoshop:DateCreated']).toBeNull();
    expect(xmpTagsFor(r)['XMP-dc:Date']).toBeNull();
    expect(cell(r, 'estimate (DACS)')).toBeNull();
    expect(cell(r, 'clues only, not a date (DACS)')).toBe('approximately 1931');
    expect(cell(r, 'evidence (source, kind, interval, review, reading)')).toBe(
      'pending ai estimate 1931-01-01 – 1931-12-31 (EDTF 1931, evidence confidence 0.2, weak clue, not a date): Visual analysis by heuristic: sepia',
    );
  });

  it('a bound states no confidence: a weak one says it is weak', () => {
    const saved: EvidenceInput = {
      ...{ id: 3, source: 'exif', kind: 'bound', earliest: null, latest: 20091231, confidence: 0.3 },
      ...{ reviewStatus: 'pending', summary: 'File last saved 2009' },
    };
    expect(cell(record([saved]), 'evidence (source, kind, interval, review, reading)')).toBe(
      'pending exif bound … – 2009-12-31 (EDTF ../2009, weak clue, open-ended, not a date): File last saved 2009',
    );
  });

  it('a wide clue reads as a weak clue in the finding line, as on the photo screen and the grid', () => {
    const wide: EvidenceInput = { ...heuristic, earliest: 18500101, latest: 20261231, confidence: 0.94 };
    expect(cell(record([wide]), 'evidence (source, kind, interval, review, reading)')).toBe(
      'pending ai estimate 1850-01-01 – 2026-12-31 (EDTF 1850/2026, evidence confidence 0.94, weak clue spanning 177 years, not a date): Visual analysis by heuristic: sepia',
    );
  });

  it('a pending finding dates the photo on screen but writes no standard date, and says it needs review', () => {
    const r = record([caption('pending')]);
    expect(r.estimate.status).toBe('needs_review');
    expect(xmpTagsFor(r)['XMP-photoshop:DateCreated']).toBeNull();
    expect(cell(r, 'needs review')).toBe('yes: 1 finding awaits review');
  });

  it('an accepted finding is written, even while a clue beside it waits for review', () => {
    const r = record([heuristic, caption('accepted')]);
    expect(xmpTagsFor(r)['XMP-photoshop:DateCreated']).toBe('1947');
    expect(cell(r, 'needs review')).toBe('yes: 1 finding awaits review');
    expect(record([caption('accepted')]).estimate.status).toBe('estimated');
    expect(cell(record([caption('accepted')]), 'needs review')).toBe('no');
  });
});

describe('XMP carries each finding’s EDTF with its uncertainty marks (issue 27)', () => {
  const read = (id: number, text: string, reviewStatus: EvidenceInput['reviewStatus'], source: 'ocr' | 'note' = 'ocr') => ({
    input: {
      ...{ id, source, kind: 'estimate' as const, earliest: 19060704, latest: 19060704, confidence: 0.85 },
      ...{ reviewStatus, summary: `Text reads “${text}”` },
    },
    details: { text, reason: 'written date' },
  });

  it('writes “1906-07-04?” for a date written with a question mark, in the sidecar and the CSV alike', () => {
    const uncertain = read(2, 'July 4? 1906', 'pending');
    const r = record([uncertain.input], { 2: uncertain.details });
    const lines = xmpTagsFor(r)['XMP-circa:Evidence'];
    expect(lines).toEqual([expect.stringContaining('(EDTF 1906-07-04?, evidence confidence 0.85)')]);
    expect(cell(r, 'evidence (source, kind, interval, review, reading)')).toBe((lines as string[])[0]);
    // Pending: the reading is carried in Circa's namespace with its review state, never as the standard date.
    expect(xmpTagsFor(r)['XMP-photoshop:DateCreated']).toBeNull();
    expect((lines as string[])[0]).toMatch(/^pending ocr estimate/);
  });

  it('writes a note’s approximate and seasonal readings as written, and the standard date only once accepted', () => {
    const circa = read(3, 'ca. 1906', 'accepted', 'note');
    circa.input.earliest = 19060101;
    circa.input.latest = 19061231;
    const r = record([circa.input], { 3: circa.details });
    expect(xmpTagsFor(r)['XMP-circa:Evidence']).toEqual([expect.stringContaining('EDTF 1906~')]);
    expect(xmpTagsFor(r)['XMP-photoshop:DateCreated']).toBe('1906');
    const summer = read(4, 'Summer 1906', 'pending', 'note');
    summer.input.earliest = 19060601;
    summer.input.latest = 19060831;
    expect(xmpTagsFor(record([summer.input], { 4: summer.details }))['XMP-circa:Evidence']).toEqual([
      expect.stringContaining('EDTF 1906-22'),
    ]);
  });
});
