/**
 * The grid's reads: a keyset-paged list of photos by sort, state filter, year range and full-text
 * search, and how many match. Built for a library of a million photos:
 *  - every page walks an index in the order it returns and stops after a page (a plan is chosen
 *    per query, not left to a planner without statistics);
 *  - totals for the state filters come from photo_counts (kept by triggers); a search or a year
 *    range is counted up to COUNT_CAP and then said to be "at least" that many;
 *  - "newest imported first" is id order (ids are handed out as photos are imported), so its
 *    pages and a search sorted that way read the rowid order SQLite and FTS5 keep anyway.
 */
import type Database from 'better-sqlite3';
import type { PhotoSummary } from '../../shared/contract';
import { DATE_KEY_SQL } from '../db/schema';
import { PHOTO_READING_TYPE } from '../../shared/jobs/types';
import { UNREVIEWED_DUPLICATE_IDS } from './duplicate-filter';
import { searchCondition } from './photo-search-query';
import { dateColumns, DATED, firstDay, lastDay, yearConditions, type DateColumns, type YearMode } from './photo-date-columns';

// What a search becomes lives in its own module; these names were exported from here first.
export { ftsQuery, searchCondition, sharpSVariants } from './photo-search-query';

export type PhotoSort = 'imported' | 'filename' | 'date';
export type { YearMode } from './photo-date-columns';
export type PhotoFilter =
  | 'all'
  | 'needs_metadata'
  | 'failed'
  | 'missing'
  | 'has_evidence'
  | 'undated'
  | 'needs_review'
  | 'conflict'
  | 'unreviewed_duplicates';
export interface PhotoCursor {
  v: string | number | null;
  id: number;
}

export interface PhotoQuery {
  sort: PhotoSort;
  filter: PhotoFilter;
  search?: string;
  yearFrom?: number;
  yearTo?: number;
  yearMode?: YearMode;
  /** Sort and filter an undated photo with clues by what its clues would say (photo-date-columns.ts). */
  includeClues?: boolean;
  cursor?: PhotoCursor;
  ids?: number[];
  limit: number;
}

/** A search or a year range is counted this far; past it the total is a lower bound. */
export const COUNT_CAP = 1000;
/** A state with fewer photos than this is listed from its own index and sorted; more, by walking the sort's index. */
const SMALL_STATE = 20_000;
/**
 * A year range that holds fewer estimates starting in it than this is listed from the estimate
 * range index and sorted: walking the sort's order for the rare photo inside a narrow range
 * (1851–1852 in a million) read most of the library, ~0.9 s for a page and its count.
 */
const NARROW_YEARS = 10_000;
/**
 * Every condition a year range puts on a photo, in one index (status, earliest, latest): its
 * photos are found and counted there without reading their rows.
 */
const RANGE_INDEX = 'photos INDEXED BY photos_estimate_range_idx';
/** State filters that index can answer as well (the estimate states). */
const RANGE_INDEX_FILTERS: ReadonlySet<PhotoFilter> = new Set(['all', 'undated', 'needs_review', 'conflict']);

/** A photo not read yet: its latest metadata job (one lookup in the subject index), for the tile to show. */
const METADATA_JOB_SQL = `CASE WHEN metadata_status = 'pending' THEN (
    SELECT json_object('id', j.id, 'status', j.status, 'runAfter', j.run_after, 'errorMessage', j.error_message)
      FROM background_jobs j WHERE j.subject = 'photo:' || photos.id AND j.type = '${PHOTO_READING_TYPE}' ORDER BY j.id DESC LIMIT 1
  ) END`;

// Qualified: a search joins photos_fts, whose columns share some of these names.
export const SUMMARY_COLUMNS = `photos.id, photos.filename, photos.path, format, display_width, display_height, thumbnail, sha256,
  metadata_status, metadata_error, missing, camera, exif_date, estimate_status, estimate_earliest, estimate_latest,
  json_extract(estimate, '$.dacs') AS estimate_label, json_array_length(estimate, '$.clueIds') AS clue_count, imported_at, ${DATE_KEY_SQL} AS date_key,
  ${METADATA_JOB_SQL} AS metadata_job`;

/** The summary columns with the date order's key over `cols` (the same columns by default). */
const summaryColumns = (cols: DateColumns) =>
  cols.key === DATE_KEY_SQL ? SUMMARY_COLUMNS : `${SUMMARY_COLUMNS}, ${cols.key} AS clue_date_key`;

/**
 * Each filter's condition and how it is counted exactly: for a state, its key in photo_counts; for
 * a set kept outside the photos table, a query that counts the set (`countSql`).
 */
const FILTERS: Record<PhotoFilter, { where: string; countKey?: string; countSql?: string }> = {
  all: { where: '1', countKey: 'all' },
  needs_metadata: { where: "metadata_status = 'pending'", countKey: 'metadata:pending' },
  failed: { where: "metadata_status = 'failed'", countKey: 'metadata:failed' },
  missing: { where: 'missing = 1', countKey: 'missing' },
  has_evidence: {
    where:
      "EXISTS (SELECT 1 FROM evidence e WHERE e.photo_id = photos.id AND e.superseded_at IS NULL AND e.review_status != 'rejected')",
  },
  undated: { where: "estimate_status = 'undated'", countKey: 'estimate:undated' },
  needs_review: { where: "estimate_status = 'needs_review'", countKey: 'estimate:needs_review' },
  conflict: { where: "estimate_status = 'conflict'", countKey: 'estimate:conflict' },
  unreviewed_duplicates: {
    where: `photos.id IN (${UNREVIEWED_DUPLICATE_IDS})`,
    countSql: `SELECT count(*) FROM (${UNREVIEWED_DUPLICATE_IDS})`,
  },
};

/**
 * Where a page goes on after a cursor: one range of the sort's index, its condition and the order
 * the index delivers it in (the sort's own order unless said). A page reads them in turn until it
 * is full.
 */
interface Continuation {
  where: string;
  args: unknown[];
  order?: string;
}

/**
 * ORDER BY, the walk that delivers it (a FROM clause; null: the table's own rowid order), and the
 * ranges that continue after a cursor.
 */
const SORTS: Record<
  PhotoSort,
  {
    order: string;
    walk: string | null;
    key: (r: Record<string, unknown>) => string | number | null;
    after(c: PhotoCursor): Continuation[];
  }
> = {
  imported: {
    order: 'photos.id DESC',
    walk: null,
    key: (r) => r.id as number,
    after: (c) => [{ where: 'photos.id < ?', args: [c.id] }],
  },
  filename: {
    order: 'photos.filename ASC, photos.id ASC',
    walk: 'photos INDEXED BY photos_filename_idx',
    key: (r) => r.filename as string,
    // A row value, which SQLite seeks to in the index; the same condition spelt with OR scanned
    // the index from its start (72 ms for a page 90 % into a million photos).
    after: (c) => [{ where: '(photos.filename, photos.id) > (?, ?)', args: [c.v, c.id] }],
  },
  // By the known end of the estimate, closed before open on the same day, undated and conflicting
  // last (DATE_KEY_SQL in schema.ts; documented in the README).
  date: {
    order: `${DATE_KEY_SQL} IS NULL, ${DATE_KEY_SQL} ASC, photos.id ASC`,
    walk: 'photos INDEXED BY photos_date_order_idx',
    key: (r) => r.date_key as number | null,
    after: (c) => dateContinuations(c, DATE_KEY_SQL),
  },
};

/** The date order with clues included: the same order and ranges over the clue key, with no index to walk. */
const DATE_WITH_CLUES_SORT: (typeof SORTS)['date'] = {
  order: `clue_date_key IS NULL, clue_date_key ASC, photos.id ASC`,
  walk: null,
  key: (r) => r.clue_date_key as number | null,
  after: (c) => dateContinuations(c, dateColumns(true).key),
};

/**
 * After a cursor by date, as ranges of photos_date_order_idx (K IS NULL, K, id) that SQLite seeks
 * to: the rest of the cursor's key, the later keys, then the undated photos. One condition with OR
 * ("K > ? OR (K = ? AND id > ?) OR K IS NULL") scanned the index from its start, 45.6 ms for a
 * page 90 % into a million photos, and SQLite does not seek on a row value over an index's
 * expressions. Each range names the index's leading columns with equalities, and its ORDER BY
 * leaves out what they fix (an ORDER BY term over an expression the WHERE fixes still sorts).
 */
function dateContinuations(c: PhotoCursor, K: string): Continuation[] {
  const undated = (idAfter: number | null): Continuation => ({
    where: `(${K} IS NULL) = 1 AND ${K} IS NULL${idAfter === null ? '' : ' AND photos.id > ?'}`,
    args: idAfter === null ? [] : [idAfter],
    order: 'photos.id ASC',
  });
  if (c.v === null) return [undated(c.id)];
  return [
    { where: `(${K} IS NULL) = 0 AND ${K} = ? AND photos.id > ?`, args: [c.v, c.id], order: 'photos.id ASC' },
    { where: `(${K} IS NULL) = 0 AND ${K} > ?`, args: [c.v], order: `${K} ASC, photos.id ASC` },
    undated(null),
  ];
}

/** A sort's ORDER BY and its key column (benchmarks and tests find a deep cursor with them). */
export function sortSql(sort: PhotoSort): { order: string; key: string } {
  return { order: SORTS[sort].order, key: { imported: 'photos.id', filename: 'photos.filename', date: DATE_KEY_SQL }[sort] };
}

/**
 * The days between which the earliest of every estimate a "within" range holds lies, when it has
 * a first year (an estimate's earliest is never after its latest, so the last year bounds it
 * too; without one, any later day); null otherwise. The estimate range index and the date order's
 * index are both walked over this range alone.
 */
function withinDays(q: PhotoQuery): [number, number] | null {
  if ((q.yearMode ?? 'within') !== 'within' || q.yearFrom === undefined) return null;
  return [firstDay(q.yearFrom), lastDay(q.yearTo ?? 9999)];
}

/**
 * The conditions of a query without its sort, paging or plan: state filter, year range and
 * search. An export of "the photos the library shows" reads its scope with them.
 */
export function photoWhere(q: Pick<PhotoQuery, 'filter' | 'search' | 'yearFrom' | 'yearTo' | 'yearMode' | 'includeClues'>): {
  where: string[];
  args: unknown[];
} {
  const [yearWhere, yearArgs] = yearConditions(q.yearMode ?? 'within', q.yearFrom, q.yearTo, dateColumns(q.includeClues));
  const where = [FILTERS[q.filter].where, ...yearWhere];
  const args: unknown[] = [...yearArgs];
  const search = searchCondition(q.search);
  if (search === 'none') where.push('0');
  else if (search) {
    where.push('photos.id IN (SELECT rowid FROM photos_fts WHERE photos_fts MATCH ?)');
    args.push(search.match);
  }
  return { where, args };
}

export function toPhotoSummary(r: Record<string, any>): PhotoSummary {
  return {
    id: r.id,
    filename: r.filename,
    path: r.path,
    format: r.format,
    displayWidth: r.display_width,
    displayHeight: r.display_height,
    thumbnailVersion: r.thumbnail ? String(r.sha256).slice(0, 12) : null,
    metadataStatus: r.metadata_status,
    metadataError: r.metadata_error,
    metadataJob: r.metadata_job ? (JSON.parse(r.metadata_job) as PhotoSummary['metadataJob']) : null,
    missing: !!r.missing,
    camera: r.camera,
    exifDate: r.exif_date,
    estimateStatus: r.estimate_status,
    estimateEarliest: r.estimate_earliest,
    estimateLatest: r.estimate_latest,
    estimateLabel: r.estimate_label ?? null,
    clueCount: r.clue_count ?? 0,
    importedAt: r.imported_at,
  };
}

export class PhotoListing {
  private readonly statements = new Map<string, Database.Statement>();
  private readonly count: Database.Statement;

  private readonly countCap: number;
  private readonly smallState: number;
  private readonly narrowYearsLimit: number;

  constructor(
    private readonly sqlite: Database.Database,
    /** Tests set these low to exercise both plans and the capped count on a small library. */
    opts: { countCap?: number; smallState?: number; narrowYears?: number } = {},
  ) {
    this.count = sqlite.prepare('SELECT n FROM photo_counts WHERE key = ?').pluck();
    this.countCap = opts.countCap ?? COUNT_CAP;
    this.smallState = opts.smallState ?? SMALL_STATE;
    this.narrowYearsLimit = opts.narrowYears ?? NARROW_YEARS;
  }

  list(q: PhotoQuery): { items: PhotoSummary[]; total: number; totalExact: boolean; nextCursor: PhotoCursor | null } {
    const b = this.build(q);
    const counted = this.total(q, b);
    const rows: Record<string, unknown>[] = [];
    for (const read of b.reads) {
      if (rows.length >= q.limit) break;
      rows.push(...(this.prepare(read.sql).all(...read.args, q.limit - rows.length) as Record<string, unknown>[]));
    }
    const last = rows[rows.length - 1];
    return {
      items: rows.map(toPhotoSummary),
      ...counted,
      nextCursor: rows.length === q.limit && last ? { v: b.sort.key(last), id: last.id as number } : null,
    };
  }

  /** The plan a page of this query takes (tests check that no page sorts the whole library). */
  plan(q: PhotoQuery): string[] {
    return this.build(q).reads.flatMap((read) => {
      const rows = this.sqlite.prepare(`EXPLAIN QUERY PLAN ${read.sql}`).all(...read.args, 1) as { detail: string }[];
      return rows.map((r) => r.detail);
    });
  }

  /**
   * Where a query's rows come from and in what order: a search's matches in rowid order (the
   * "imported" order), photos through the sort's index, or a small state's own index (its few
   * rows sorted after). Arguments follow their placeholders: year range, ids, search, cursor.
   * `reads`: the queries a page reads in turn until it is full (one, unless a cursor's
   * continuation is several ranges).
   */
  private build(q: PhotoQuery) {
    const filter = FILTERS[q.filter];
    // With clues included the dates are read from each row (no index holds them): no index range.
    const cols = dateColumns(q.includeClues);
    let sort = q.includeClues && q.sort === 'date' ? DATE_WITH_CLUES_SORT : SORTS[q.sort];
    const [yearWhere, yearArgs] = yearConditions(q.yearMode ?? 'within', q.yearFrom, q.yearTo, cols);
    const where = [filter.where, ...yearWhere];
    const args: unknown[] = [...yearArgs];
    // Conditions the year range implies, which bound an index walk (see withinDays).
    const days = q.includeClues ? null : withinDays(q);
    const narrow = days && this.isNarrow(q, days);
    const dateRange = days && !narrow && q.sort === 'date';
    if (narrow) {
      where.push('estimate_earliest BETWEEN ? AND ?');
      args.push(...days);
    } else if (dateRange) {
      // As date keys (DATE_KEY_SQL: the earliest × 2, + 1 when the latest is open).
      where.push(`(${DATE_KEY_SQL} IS NULL) = 0 AND ${DATE_KEY_SQL} BETWEEN ? AND ?`);
      args.push(days[0] * 2, days[1] * 2 + 1);
    }
    if (q.ids?.length) {
      where.push(`photos.id IN (${q.ids.map(() => '?').join(',')})`);
      args.push(...q.ids);
    }
    const search = searchCondition(q.search);
    if (search === 'none') where.push('0');
    const match = search && search !== 'none' ? search.match : null;
    let from = 'photos';
    if (match && q.sort === 'imported') {
      from = 'photos_fts JOIN photos ON photos.id = photos_fts.rowid';
      where.push('photos_fts MATCH ?');
      args.push(match);
      // The same order, named on the full-text table so FTS5 delivers it (rowid = photo id).
      sort = { ...sort, order: 'photos_fts.rowid DESC', after: (c) => [{ where: 'photos_fts.rowid < ?', args: [c.id] }] };
    } else {
      if (match) {
        where.push('photos.id IN (SELECT rowid FROM photos_fts WHERE photos_fts MATCH ?)');
        args.push(match);
      }
      const small = filter.countKey !== 'all' && (this.exactCount(filter) ?? Infinity) < this.smallState;
      // "Newest imported" is rowid order: the planner finds it itself, through a state's own index
      // when filtered by state, but with a year range it took the estimate range index and sorted
      // the whole range (1900–1920 in a million photos, 64 ms a page against 5): it walks the table.
      if (narrow) from = RANGE_INDEX;
      else if (!small && !q.ids?.length) from = sort.walk ?? (yearWhere.length ? 'photos NOT INDEXED' : 'photos');
    }
    // In a range of dated keys the leading `K IS NULL` is fixed; an ORDER BY that names it would sort.
    const first: Continuation = { where: '', args: [], order: dateRange ? `${DATE_KEY_SQL} ASC, photos.id ASC` : undefined };
    const continuations: Continuation[] = q.cursor ? sort.after(q.cursor) : [first];
    const reads = continuations.map((c) => ({
      sql: `SELECT ${summaryColumns(cols)} FROM ${from} WHERE ${[...where, c.where].filter(Boolean).join(' AND ')}
        ORDER BY ${c.order ?? sort.order} LIMIT ?`,
      args: [...args, ...c.args],
    }));
    // A year range is counted in its index when nothing else needs the rows: walking the sort's
    // order to the count's cap read up to tens of thousands of rows (1990–2000 by filename, 114 ms).
    const countFrom =
      (yearWhere.length && RANGE_INDEX_FILTERS.has(q.filter) && !match && !q.ids?.length && !q.includeClues) || narrow
        ? RANGE_INDEX
        : from;
    return { sort, filter, from, countFrom, where, args, reads };
  }

  /**
   * Whether few dated estimates start within `days` (counted in the range index alone, up to
   * NARROW_YEARS): then the range is read from that index and sorted.
   */
  private isNarrow(q: PhotoQuery, days: [number, number]): boolean {
    if (q.search || q.ids?.length || this.narrowYearsLimit <= 0) return false;
    const inRange = this.prepare(
      `SELECT count(*) FROM (SELECT 1 FROM ${RANGE_INDEX}
         WHERE ${DATED} AND estimate_earliest BETWEEN ? AND ? LIMIT ${this.narrowYearsLimit})`,
    )
      .pluck()
      .get(...days) as number;
    return inRange < this.narrowYearsLimit;
  }

  /** How a query's total is counted, when it is (tests check that a year range reads its index alone). */
  countPlan(q: PhotoQuery): string[] {
    const b = this.build(q);
    const rows = this.sqlite.prepare(`EXPLAIN QUERY PLAN ${this.countSql(b)}`).all(...b.args) as { detail: string }[];
    return rows.map((r) => r.detail);
  }

  private total(q: PhotoQuery, b: ReturnType<PhotoListing['build']>) {
    const exact = !q.search && q.yearFrom === undefined && q.yearTo === undefined && !q.ids?.length;
    const known = exact ? this.exactCount(b.filter) : undefined;
    if (known !== undefined) return { total: known, totalExact: true };
    const n = this.prepare(this.countSql(b))
      .pluck()
      .get(...b.args) as number;
    return n > this.countCap ? { total: this.countCap, totalExact: false } : { total: n, totalExact: true };
  }

  private countSql(b: ReturnType<PhotoListing['build']>): string {
    return `SELECT count(*) FROM (SELECT 1 FROM ${b.countFrom} WHERE ${b.where.join(' AND ')} LIMIT ${this.countCap + 1})`;
  }

  /** The filter's exact count when it has a cheap one (undefined: it has none). */
  private exactCount(filter: (typeof FILTERS)[PhotoFilter]): number | undefined {
    if (filter.countKey) return (this.count.get(filter.countKey) as number | undefined) ?? 0;
    if (filter.countSql) return this.prepare(filter.countSql).pluck().get() as number;
    return undefined;
  }

  private prepare(sql: string): Database.Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.sqlite.prepare(sql);
      if (this.statements.size > 200) this.statements.clear();
      this.statements.set(sql, s);
    }
    return s;
  }
}
