// The held-out notation corpus (notation-holdout.tsv): 80 date strings written from DACS 2.4's
// examples, Library of Congress bracket forms, ArchivesSpace date expressions and real caption
// styles in the seven languages, with their expected readings worked out before the readers were
// run on them, and never used to tune a reader. It keeps the main corpus honest: a share here far
// below the main corpus's would mean the readers learnt their strings, not the notations.
// `npm run bench -- dating --notation` prints both tables; the misses are listed in the report.
import { describe, expect, it } from 'vitest';
import { extractDates } from '../../src/shared/dating';
import { HOLDOUT_FILE, loadNotationCorpus, scoreRow, sharesByCategory } from './notation-corpus';

const rows = loadNotationCorpus(HOLDOUT_FILE);
const results = rows.map((row) =>
  scoreRow(row, extractDates(row.text, { referenceYear: 2025, ...(row.order ? { dateOrder: row.order } : {}) })),
);
const describeMiss = (r: (typeof results)[number]) =>
  `line ${r.row.line} [${r.row.category}/${r.row.lang}] ${JSON.stringify(r.row.text)}: found ${JSON.stringify(
    r.found.map((f) => [f.earliest, f.latest, f.edtf]),
  )}, expected ${r.row.edtf}`;

describe('held-out notation corpus', () => {
  it('holds at least 60 strings in the seven languages, none of them in the main corpus', () => {
    expect(rows.length).toBeGreaterThanOrEqual(60);
    const languages = new Set(rows.map((r) => r.lang));
    for (const lang of ['en', 'fr', 'de', 'es', 'it', 'nl', 'pt']) expect(languages).toContain(lang);
    const tuned = new Set(loadNotationCorpus().map((r) => r.text));
    expect(rows.filter((r) => tuned.has(r.text)).map((r) => r.text)).toEqual([]);
  });

  it('reads at least 0.9 of them exactly to the day (the main corpus demands 0.95 of strings the readers were built on)', () => {
    const all = sharesByCategory(results).find((s) => s.category === 'all')!;
    const missed = results.filter((r) => !r.exactToTheDay).map(describeMiss);
    expect(all.exact / all.rows, missed.join('\n')).toBeGreaterThanOrEqual(0.9);
  });

  it('invents no date where the text has none', () => {
    expect(results.filter((r) => r.invented).map(describeMiss)).toEqual([]);
  });
});
