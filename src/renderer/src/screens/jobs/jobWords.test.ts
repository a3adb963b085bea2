import { describe, expect, it } from 'vitest';
import { permanentRemedy, subjectLabel } from './jobWords';
import { PHOTO_READING_TYPE, PRODUCT_JOB_TYPES, readsPhoto } from '../../../../shared/jobs/types';

describe("a job's words come from its type's definition", () => {
  it("a locate job reads as the place searched; a photo's job as the photo", () => {
    expect(subjectLabel({ type: 'locate', subject: 'locate:/archive/scans', photo: null })).toBe('in /archive/scans');
    expect(subjectLabel({ type: 'ocr', subject: 'photo:7', photo: { id: 7, filename: 'a.jpg' } })).toBe('a.jpg');
    expect(subjectLabel({ type: 'ocr', subject: 'photo:7', photo: null })).toBe('a photo no longer in the library');
    expect(subjectLabel({ type: 'backup', subject: null, photo: null })).toBe('');
  });

  it("a visual-analysis failure points to Settings; a photo's failure to the photo", () => {
    for (const type of ['ai_analysis', 'ai_test']) expect(permanentRemedy({ type, photo: null }).fix?.href).toBe('#/settings');
    expect(permanentRemedy({ type: 'ocr', photo: { id: 3, filename: 'b.jpg' } }).fix?.href).toBe('#/photo/3');
    expect(permanentRemedy({ type: 'export', photo: null }).fix).toBeUndefined();
  });

  it('exactly one type reads a photo into the catalogue: metadata', () => {
    expect(PRODUCT_JOB_TYPES.filter(readsPhoto)).toEqual(['metadata']);
    expect(PHOTO_READING_TYPE).toBe('metadata');
  });
});
