import { describe, expect, it } from 'vitest';
import { evidenceItemSchema } from './contract';

const base = {
  id: 1,
  photoId: 1,
  kind: 'bound',
  earliest: null,
  latest: 20000930,
  precision: 'day',
  confidence: null,
  summary: 's',
  jobId: null,
  attempt: null,
  reviewStatus: 'pending',
  reviewNote: null,
  superseded: false,
  createdAt: 0,
  edtf: null,
  label: null,
  clue: null,
};

describe('evidence details: one schema per source, checked by the contract', () => {
  it('types each source’s details', () => {
    const ocr = evidenceItemSchema.parse({
      ...base,
      source: 'ocr',
      details: {
        text: '12-6-23',
        line: 'Postmarked PARIS 12-6-23',
        reason: 'r',
        ocrConfidence: 88,
        use: { cue: 'postmark', word: 'Postmarked' },
      },
    });
    expect(ocr.source === 'ocr' && ocr.details?.use?.cue).toBe('postmark');
    expect(() => evidenceItemSchema.parse({ ...base, source: 'ocr', details: { clues: [] } })).toThrow();
    expect(() => evidenceItemSchema.parse({ ...base, source: 'ai', details: { text: 'x' } })).toThrow();
  });

  it('reads what older versions stored: a year-only manual constraint, EXIF details without an origin', () => {
    expect(
      evidenceItemSchema.parse({
        ...base,
        source: 'manual',
        details: { constraint: { type: 'not_before', year: 1923 }, note: '' },
      }),
    ).toMatchObject({ details: { constraint: { year: 1923 } } });
    expect(
      evidenceItemSchema.parse({
        ...base,
        source: 'exif',
        details: { field: 'DateTimeOriginal', raw: '2000:09:30', reason: null },
      }),
    ).toMatchObject({ details: { field: 'DateTimeOriginal' } });
  });
});
