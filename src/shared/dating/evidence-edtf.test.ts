import { describe, expect, it } from 'vitest';
import { evidenceEdtf } from './evidence-edtf';

describe('evidenceEdtf', () => {
  it('keeps the marks of a date read from text', () => {
    expect(evidenceEdtf({ earliest: 19060704, latest: 19060704, precision: 'day', details: { text: 'July 4? 1906' } })).toBe(
      '1906-07-04?',
    );
    expect(evidenceEdtf({ earliest: 19060301, latest: 19060531, precision: 'season', details: { text: '1906 Spring' } })).toBe(
      '1906-21',
    );
    expect(evidenceEdtf({ earliest: 19060101, latest: 19061231, precision: 'year', details: { text: 'vers 1906' } })).toBe(
      '1906~',
    );
  });

  it('gives other evidence its interval at the stored precision', () => {
    expect(evidenceEdtf({ earliest: null, latest: 20000930, precision: 'day', details: null })).toBe('../2000-09-30');
    expect(evidenceEdtf({ earliest: 19060601, latest: 19060630, precision: 'month', details: { constraint: {} } })).toBe(
      '1906-06',
    );
    expect(evidenceEdtf({ earliest: 19230601, latest: 19251231, precision: 'month/year', details: null })).toBe('1923-06/1925');
  });

  it('falls back to the interval when the text no longer reads as that date, and is null with no interval', () => {
    expect(evidenceEdtf({ earliest: 19060101, latest: 19061231, precision: 'year', details: { text: 'Route 66' } })).toBe('1906');
    expect(evidenceEdtf({ earliest: null, latest: null, precision: null, details: null })).toBeNull();
  });
});
