import { describe, expect, it } from 'vitest';
import { isWide, weakClueCount, weakClueFlag, weakClueTag } from './clue-words';

describe('clue words', () => {
  it('counts clues as weak clues', () => {
    expect(weakClueCount(1)).toBe('1 weak clue');
    expect(weakClueCount(3)).toBe('3 weak clues');
  });

  it('a wide clue says how wide it is; a narrow one is still a weak clue', () => {
    expect(weakClueTag({ earliestYear: 1850, latestYear: 2026 })).toBe('weak clue spanning 177 years');
    expect(weakClueTag({ earliestYear: 1930, latestYear: 1930 })).toBe('weak clue');
    expect(weakClueTag({ earliestYear: null, latestYear: 2009 })).toBe('weak clue, open-ended');
    expect(weakClueTag({ earliestYear: null, latestYear: null })).toBe('weak clue');
    expect(isWide({ earliestYear: 1940, latestYear: 1959 })).toBe(true);
    expect(isWide({ earliestYear: 1940, latestYear: 1958 })).toBe(false);
  });

  it('flags a clue with its reason', () => {
    expect(weakClueFlag({ earliestYear: 1850, latestYear: 2026 }, 'visual analysis not yet accepted')).toBe(
      'Weak clue spanning 177 years, not a date: visual analysis not yet accepted',
    );
  });
});
