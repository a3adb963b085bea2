/**
 * The notation part of `npm run bench -- dating`: the notation corpus (test/dating/notation-corpus.tsv)
 * read by extractDates, and per category (and per language) the share read exactly to the day,
 * with the right precision and with the right EDTF, plus any date invented where the text has none.
 * It takes well under a second, so it runs before the OCR rounds; `--notation` runs it alone.
 * The held-out corpus (test/dating/notation-holdout.tsv: strings no reader was tuned on) gets its
 * own table after it, so the two shares are never mixed.
 */
import { extractDates } from '../src/shared/dating';
import { HOLDOUT_FILE, loadNotationCorpus, scoreRow, sharesByCategory } from '../test/dating/notation-corpus';

export interface NotationFigures {
  rows: number;
  exact: number;
  precision: number;
  edtf: number;
  invented: number;
}

const share = (n: number, of: number) => `${((100 * n) / of).toFixed(1)}%`.padStart(7);

export function notationTable(): NotationFigures & { heldOut: NotationFigures } {
  const main = corpusTable(
    loadNotationCorpus(),
    'Notation corpus: share read exactly to the day, with its precision, with its EDTF',
  );
  const heldOut = corpusTable(
    loadNotationCorpus(HOLDOUT_FILE),
    'Held-out notation corpus (strings no reader was tuned on): the same shares',
  );
  return { ...main, heldOut };
}

function corpusTable(rows: ReturnType<typeof loadNotationCorpus>, title: string): NotationFigures {
  const results = rows.map((row) =>
    scoreRow(row, extractDates(row.text, { referenceYear: 2025, ...(row.order ? { dateOrder: row.order } : {}) })),
  );
  // Notation categories first, then languages, then all rows.
  const rank = (c: string) => (c === 'all' ? 2 : c.startsWith('lang:') ? 1 : 0);
  const shares = sharesByCategory(results).sort((a, b) => rank(a.category) - rank(b.category));
  const width = Math.max(...shares.map((s) => s.category.length), 'category'.length);
  console.log(`\n${title}`);
  console.log(`${'category'.padEnd(width)}   rows  to the day  precision     EDTF`);
  for (const s of shares) {
    console.log(
      `${s.category.padEnd(width)}  ${String(s.rows).padStart(5)}     ${share(s.exact, s.rows)}    ${share(s.precision, s.rows)}  ${share(s.edtf, s.rows)}`,
    );
  }
  const invented = results.filter((r) => r.invented);
  console.log(
    `dates invented where the text has none: ${invented.length}${invented.map((r) => ` ${JSON.stringify(r.row.text)}`).join('')}`,
  );
  const misses = results.filter((r) => !r.exactToTheDay);
  if (misses.length && misses.length <= 10)
    console.log(`not read to the day:${misses.map((r) => ` ${JSON.stringify(r.row.text)}`).join('')}`);
  const all = shares.find((s) => s.category === 'all')!;
  return { rows: all.rows, exact: all.exact, precision: all.precision, edtf: all.edtf, invented: invented.length };
}
