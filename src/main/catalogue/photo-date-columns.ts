/**
 * Which dates the grid's date order and year filter read. By default, the estimate's own
 * (`estimate_earliest`/`estimate_latest`, indexed): a photo with only clues is undated there, as
 * the clue rule says (src/shared/dating/clue-rule.ts). When the archivist asks to include clues,
 * an undated photo with clues is placed and filtered by what the clues alone would say
 * (`withClues` in its stored estimate); a dated photo keeps its estimate, and a conflict stays
 * undated. That reading has no index: it is the archivist's opt-in, not the grid's everyday path.
 */
import { DATE_KEY_SQL } from '../db/schema';

export interface DateColumns {
  /** The condition a photo meets when it has dates to filter on. */
  dated: string;
  earliest: string;
  latest: string;
  /** The date order's key: the known end × 2, + 1 when the other end is open (see DATE_KEY_SQL). */
  key: string;
}

/** The states whose estimates a year range can hold. */
export const DATED = "estimate_status IN ('estimated', 'needs_review')";

/** The estimate's own dates: clues left out. */
export const ESTIMATE_DATES: DateColumns = {
  dated: DATED,
  earliest: 'estimate_earliest',
  latest: 'estimate_latest',
  key: DATE_KEY_SQL,
};

const clueEnd = (end: 'earliest' | 'latest') =>
  `(CASE WHEN estimate_status = 'undated' THEN json_extract(estimate, '$.withClues.${end}') ELSE estimate_${end} END)`;

/** The date order's key over any pair of end expressions, spelt as DATE_KEY_SQL is. */
export function dateKeySql(earliest: string, latest: string): string {
  return `((CASE WHEN ${earliest} IS NULL THEN ${latest} ELSE ${earliest} END) * 2 + (${earliest} IS NULL OR ${latest} IS NULL))`;
}

/** The estimate's dates, or for an undated photo with clues, what its clues would say. */
export const DATES_WITH_CLUES: DateColumns = {
  dated: `(${DATED} OR (estimate_status = 'undated' AND json_type(estimate, '$.withClues') = 'object'))`,
  earliest: clueEnd('earliest'),
  latest: clueEnd('latest'),
  key: dateKeySql(clueEnd('earliest'), clueEnd('latest')),
};

export const dateColumns = (includeClues: boolean | undefined): DateColumns => (includeClues ? DATES_WITH_CLUES : ESTIMATE_DATES);

/** A year's first and last day as stored (YYYYMMDD). */
export const firstDay = (year: number) => year * 10000 + 101;
export const lastDay = (year: number) => year * 10000 + 1231;

/** within: the estimate lies inside the years; overlaps: it could be from them (open ends reach). */
export type YearMode = 'within' | 'overlaps';

/** The year filter's conditions over `cols`: [SQL, args] for a range of whole years. */
export function yearConditions(
  mode: YearMode,
  from: number | undefined,
  to: number | undefined,
  cols: DateColumns = ESTIMATE_DATES,
): [string[], unknown[]] {
  if (from === undefined && to === undefined) return [[], []];
  const where = [cols.dated];
  const args: unknown[] = [];
  const start = from !== undefined ? firstDay(from) : undefined;
  const end = to !== undefined ? lastDay(to) : undefined;
  const { earliest: e, latest: l } = cols;
  if (mode === 'within') {
    // Inside the years: a known end on each side that is limited ("not after 2026" is in no range of the past).
    if (start !== undefined) where.push(`${e} IS NOT NULL AND ${e} >= ?`);
    if (end !== undefined) where.push(`${l} IS NOT NULL AND ${l} <= ?`);
  } else {
    // Could be from those years: an open end reaches any year on its side.
    if (start !== undefined) where.push(`(${l} IS NULL OR ${l} >= ?)`);
    if (end !== undefined) where.push(`(${e} IS NULL OR ${e} <= ?)`);
  }
  if (start !== undefined) args.push(start);
  if (end !== undefined) args.push(end);
  return [where, args];
}
