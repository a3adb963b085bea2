/**
 * The notation corpus (notation-corpus.tsv): date strings as archival description and captions
 * write them, each with the dates a reader must find — interval to the day, precision per end, and
 * EDTF with its uncertainty marks — or none. Rows come from DACS 2.4 and its examples, Library of
 * Congress / AACR2 bracket conventions ([1906?], [190-?], [19--]), ArchivesSpace date expressions,
 * caption styles, and the same forms in fr, de, es, it, nl and pt. The expected values were
 * worked out independently of Circa (Python's calendar and dateutil's Easter), by the conventions
 * Circa documents: meteorological northern-hemisphere seasons, thirds of a decade 0–3/4–6/7–9.
 *
 * Columns: category, lang, order (the library's numeric date order, or -), text, dates, edtf.
 * dates: `earliest..latest precision` joined by ` ; ` (`-`: no date); an empty end is open;
 * precision is one word, or `earliest/latest` when the ends differ ('open' for an open end).
 * edtf: the expression's EDTF (a list's set), or `-`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FoundDate } from '../../src/shared/dating';
import type { NumericDateOrder } from '../../src/shared/dating/notation-conventions';

export interface ExpectedDate {
  earliest: number | null;
  latest: number | null;
  precision: string;
}

export interface CorpusRow {
  line: number;
  category: string;
  lang: string;
  order: NumericDateOrder | null;
  text: string;
  dates: ExpectedDate[];
  edtf: string | null;
}

const here = path.dirname(fileURLToPath(import.meta.url));
export const CORPUS_FILE = path.join(here, 'notation-corpus.tsv');
/** Strings held out from tuning (notation-holdout.test.ts): the same columns. */
export const HOLDOUT_FILE = path.join(here, 'notation-holdout.tsv');
const ORDERS = ['month-first', 'day-first', 'undecided'];

function parseDates(cell: string, line: number): ExpectedDate[] {
  if (cell === '-') return [];
  return cell.split(' ; ').map((part) => {
    const m = /^(\d{8})?\.\.(\d{8})? (\S+)$/.exec(part);
    if (!m) throw new Error(`notation-corpus.tsv line ${line}: cannot read the dates '${part}'`);
    return { earliest: m[1] ? Number(m[1]) : null, latest: m[2] ? Number(m[2]) : null, precision: m[3] };
  });
}

export function loadNotationCorpus(file = CORPUS_FILE): CorpusRow[] {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const rows: CorpusRow[] = [];
  lines.slice(1).forEach((raw, i) => {
    if (!raw.trim()) return;
    const line = i + 2;
    const cells = raw.split('\t');
    if (cells.length !== 6) throw new Error(`notation-corpus.tsv line ${line}: ${cells.length} columns, not 6`);
    const [category, lang, order, text, dates, edtf] = cells;
    if (order !== '-' && !ORDERS.includes(order)) throw new Error(`notation-corpus.tsv line ${line}: unknown order '${order}'`);
    rows.push({
      line,
      category,
      lang,
      order: order === '-' ? null : (order as NumericDateOrder),
      text,
      dates: parseDates(dates, line),
      edtf: edtf === '-' ? null : edtf,
    });
  });
  return rows;
}

/** A found date as the corpus writes it: open ends empty, precision per end when they differ. */
export function asExpected(found: FoundDate): ExpectedDate {
  const ends = found.ends;
  const openStart = ends?.earliest === null;
  const openEnd = ends?.latest === null;
  return {
    earliest: openStart ? null : found.earliest,
    latest: openEnd ? null : found.latest,
    precision: ends ? `${ends.earliest ?? 'open'}/${ends.latest ?? 'open'}` : found.precision,
  };
}

/** The EDTF of what was found: a list's set once, single dates joined by ' ; '. */
export function foundEdtf(found: FoundDate[]): string | null {
  if (!found.length) return null;
  const parts: string[] = [];
  for (const f of found) {
    const part = f.set ?? f.edtf ?? '?';
    if (parts[parts.length - 1] !== part || !f.set) parts.push(part);
  }
  return parts.join(' ; ');
}

export interface RowResult {
  row: CorpusRow;
  found: FoundDate[];
  /** Every expected interval found, to the day, and nothing else. */
  exactToTheDay: boolean;
  precisionRight: boolean;
  edtfRight: boolean;
  /** A date found where the row has none. */
  invented: boolean;
}

export function scoreRow(row: CorpusRow, found: FoundDate[]): RowResult {
  const got = found.map(asExpected);
  const sameIntervals =
    got.length === row.dates.length &&
    got.every((g, i) => g.earliest === row.dates[i].earliest && g.latest === row.dates[i].latest);
  return {
    row,
    found,
    exactToTheDay: sameIntervals,
    precisionRight: sameIntervals && got.every((g, i) => g.precision === row.dates[i].precision),
    edtfRight: foundEdtf(found) === row.edtf,
    invented: row.dates.length === 0 && found.length > 0,
  };
}

export interface CategoryShare {
  category: string;
  rows: number;
  exact: number;
  precision: number;
  edtf: number;
}

/** Per category (and 'all'), how many rows were read exactly, with the right precision, with the right EDTF. */
export function sharesByCategory(results: RowResult[]): CategoryShare[] {
  const byCategory = new Map<string, CategoryShare>();
  const add = (key: string, r: RowResult) => {
    const share = byCategory.get(key) ?? { category: key, rows: 0, exact: 0, precision: 0, edtf: 0 };
    share.rows++;
    share.exact += Number(r.exactToTheDay);
    share.precision += Number(r.precisionRight);
    share.edtf += Number(r.edtfRight);
    byCategory.set(key, share);
  };
  for (const r of results) {
    add(r.row.category, r);
    if (r.row.lang !== '-' && r.row.lang !== 'en') add(`lang:${r.row.lang}`, r);
    add('all', r);
  }
  return [...byCategory.values()];
}
