/**
 * Issue 28 items 1, 4 and 5 at the estimator: a clue is not a date, a bound has no confidence,
 * copies count once. These fail on the estimator before the issue.
 */
import { describe, expect, it } from 'vitest';
import { estimate } from './estimate';
import type { EvidenceInput } from './types';

const item = (fields: Partial<EvidenceInput> & Pick<EvidenceInput, 'id' | 'kind'>): EvidenceInput => ({
  source: 'manual',
  earliest: null,
  latest: null,
  confidence: null,
  reviewStatus: 'pending',
  summary: `item ${fields.id}`,
  ...fields,
});
/** The offline heuristic's "circa 1850–1935" on a colour concert photograph. */
const heuristic = (id: number, more: Partial<EvidenceInput> = {}) =>
  item({ id, source: 'ai', kind: 'estimate', earliest: 18500101, latest: 19351231, confidence: 0.2, ...more });

describe('a clue is not a date', () => {
  it('an unreviewed heuristic clue leaves the photo undated, says so, and keeps what it would say', () => {
    const result = estimate([heuristic(1)]);
    expect(result).toMatchObject({ status: 'undated', earliest: null, latest: null, edtf: null, dacs: null, confidence: null });
    expect(result.clueIds).toEqual([1]);
    expect(result.withClues).toMatchObject({ earliest: 18500101, latest: 19351231, dacs: 'circa 1850–1935' });
    expect(result.explanation[0]).toMatch(
      /^Only clues, no finding, so the photo is undated: #1 .*visual analysis not yet accepted/,
    );
    expect(result.explanation[1]).toMatch(/^A clue is not a date: .* below 50% confidence/);
  });

  it('a visual analysis is a clue whatever confidence it states, until accepted', () => {
    expect(estimate([heuristic(1, { confidence: 0.9 })]).status).toBe('undated');
    expect(estimate([heuristic(1, { reviewStatus: 'accepted' })])).toMatchObject({ status: 'estimated', earliest: 18500101 });
  });

  it('an unreviewed finding below the floor is a clue; at or above it, a date', () => {
    const ocr = (confidence: number) =>
      estimate([item({ id: 1, source: 'ocr', kind: 'estimate', earliest: 19300101, latest: 19301231, confidence })]);
    expect(ocr(0.23).status).toBe('undated');
    expect(ocr(0.5)).toMatchObject({ status: 'needs_review', earliest: 19300101, confidence: 0.5 });
  });

  it('a weak "file last saved" bound is a clue until accepted, and never shows a confidence', () => {
    const saved = (reviewStatus: EvidenceInput['reviewStatus']) =>
      item({ id: 1, source: 'exif', kind: 'bound', latest: 20101231, confidence: 0.3, reviewStatus });
    expect(estimate([saved('pending')]).status).toBe('undated');
    expect(estimate([saved('accepted')])).toMatchObject({ status: 'estimated', latest: 20101231, confidence: null });
  });

  it('beside a finding, a clue moves nothing and the photo is dated by the finding alone', () => {
    const caption = item({ id: 2, source: 'ocr', kind: 'estimate', earliest: 19470101, latest: 19471231, confidence: 0.9 });
    const result = estimate([heuristic(1), caption]);
    expect(result).toMatchObject({ earliest: 19470101, latest: 19471231, confidence: 0.9, earliestSetBy: [2], latestSetBy: [2] });
    expect(result.explanation.join(' ')).toContain('Set aside as clues, not dates: #1');
  });

  it('a clue cannot put the bounds in conflict', () => {
    const scan = item({ id: 1, source: 'exif', kind: 'bound', latest: 19991231, reviewStatus: 'accepted' });
    const weak = item({ id: 2, source: 'exif', kind: 'bound', earliest: 20050101, confidence: 0.3 });
    // Dated by the scan alone; the clue still waits for review.
    expect(estimate([scan, weak])).toMatchObject({ status: 'needs_review', latest: 19991231, conflicts: [] });
  });
});

describe('copies count once', () => {
  const caption = (id: number, source: EvidenceInput['source'], more: Partial<EvidenceInput> = {}) =>
    item({
      id,
      source,
      kind: 'estimate',
      earliest: 19470101,
      latest: 19471231,
      confidence: 0.6,
      reviewStatus: 'accepted',
      ...more,
    });
  const carried = (id: number) => caption(id, 'duplicate', { originSource: 'ocr', reviewStatus: 'pending' });

  it('a caption carried from two copies does not make the estimate more certain', () => {
    const alone = estimate([caption(1, 'ocr')]);
    const withCopies = estimate([caption(1, 'ocr'), carried(2), carried(3)]);
    expect(withCopies.confidence).toBe(alone.confidence);
    expect(withCopies.explanation.join(' ')).toContain('#2 (item 2) repeats #1 from a copy of this photograph and counts once');
  });

  it('carried alone, the same caption from several copies counts once', () => {
    expect(estimate([carried(2), carried(3)]).confidence).toBe(0.6);
  });

  it('a different finding from a copy still counts', () => {
    const other = carried(2);
    const result = estimate([caption(1, 'ocr'), { ...other, earliest: 19460101, latest: 19481231 }]);
    expect(result.confidence).toBeGreaterThan(0.6);
  });
});

describe('a wide interval with a high confidence says little', () => {
  // The heuristic states the measured hit rate of its interval (95 % for one reaching the present):
  // accepted beside a caption, it must not widen the caption's year to its own 176 years.
  const caption = item({ id: 2, source: 'ocr', kind: 'estimate', earliest: 19470101, latest: 19471231, confidence: 0.9 });

  it('an accepted "1850–2026, 95 %" beside a caption "1947, 90 %" leaves the caption’s year', () => {
    const wide = heuristic(1, { latest: 20261231, confidence: 0.95, reviewStatus: 'accepted' });
    expect(estimate([wide, caption])).toMatchObject({ earliest: 19470101, latest: 19471231 });
  });

  it('a narrow weak guess still cannot narrow a confident caption', () => {
    const decade = item({ id: 3, source: 'ocr', kind: 'estimate', earliest: 19350101, latest: 19421231, confidence: 0.9 });
    const guess = heuristic(4, { earliest: 19400101, latest: 19401231, confidence: 0.2, reviewStatus: 'accepted' });
    expect(estimate([decade, guess])).toMatchObject({ earliest: 19350101, latest: 19421231 });
  });
});
