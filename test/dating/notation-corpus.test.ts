// The notation corpus (notation-corpus.ts) read by extractDates: at least 0.95 of the rows read
// exactly to the day, and no date where a row has none. Failing rows are listed by line.
import { describe, expect, it } from 'vitest';
import { extractDates } from '../../src/shared/dating';
import { loadNotationCorpus, scoreRow, sharesByCategory } from './notation-corpus';

const referenceYear = 2025;
const rows = loadNotationCorpus();
const results = rows.map((row) =>
  scoreRow(row, extractDates(row.text, { referenceYear, ...(row.order ? { dateOrder: row.order } : {}) })),
);
const describeMiss = (r: (typeof results)[number]) =>
  `line ${r.row.line} [${r.row.category}/${r.row.lang}] ${JSON.stringify(r.row.text)}: found ${JSON.stringify(
    r.found.map((f) => [f.earliest, f.latest, f.precision, f.edtf]),
  )}`;

describe('notation corpus', () => {
  it('has at least 300 rows across every category and the six languages', () => {
    expect(rows.length).toBeGreaterThanOrEqual(300);
    const languages = new Set(rows.map((r) => r.lang));
    for (const lang of ['en', 'fr', 'de', 'es', 'it', 'nl', 'pt']) expect(languages).toContain(lang);
    const categories = new Set(rows.map((r) => r.category));
    for (const c of [
      'year-first',
      'day-range',
      'month-range',
      'cross-range',
      'list',
      'alternatives',
      'open-range',
      'uncertain',
      'catalogue-digits',
      'season',
      'decade',
      'holiday',
      'numeric',
      'language',
      'undated',
      'no-date',
    ])
      expect(categories).toContain(c);
    expect(rows.filter((r) => r.dates.length === 0).length).toBeGreaterThanOrEqual(30);
  });

  it('reads at least 0.95 of the rows exactly to the day', () => {
    const missed = results.filter((r) => !r.exactToTheDay);
    const share = 1 - missed.length / results.length;
    expect(share, missed.map(describeMiss).join('\n')).toBeGreaterThanOrEqual(0.95);
  });

  it('invents no date where the text has none', () => {
    expect(results.filter((r) => r.invented).map(describeMiss)).toEqual([]);
  });

  it('gives the precision and the EDTF of at least 0.9 of the rows', () => {
    const all = sharesByCategory(results).find((s) => s.category === 'all')!;
    const wrong = results
      .filter((r) => !r.edtfRight || !r.precisionRight)
      .map((r) => `${describeMiss(r)} expected ${r.row.edtf}`);
    expect(all.precision / all.rows, wrong.join('\n')).toBeGreaterThanOrEqual(0.9);
    expect(all.edtf / all.rows, wrong.join('\n')).toBeGreaterThanOrEqual(0.9);
  });
});
