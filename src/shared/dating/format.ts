// Renders an inclusive day-number interval as EDTF (machine exchange) and as
// DACS 2.4 date wording (what an archivist writes in a finding aid).
// Both formatters describe each end at the coarsest precision it is aligned to
// (19350101 starts a year, 19470601 starts a month, 19470612 is a day), but never
// coarser than the precision the end was stated with: a scan on 30 September
// 2000 stays '../2000-09-30', not '../2000-09', though both cover the same days.
import edtf from 'edtf';
import type { EndPrecisions, Precision } from './types';
import { PRECISION_RANK } from './precision';
import {
  assertDayNum,
  dayNum,
  isMonthEnd,
  isMonthStart,
  isYearEnd,
  isYearStart,
  parts,
  toIsoDate,
  toUtcMillis,
  yearEnd,
  yearOf,
  yearStart,
  MONTH_NAMES,
} from './daynum';

export interface ApproximateEnds {
  earliest: boolean;
  latest: boolean;
}

export interface FormatOptions {
  /** true marks both ends; an object marks each end separately (an estimate may be soft at one end only). */
  approximate?: boolean | ApproximateEnds;
  /** How finely each end was stated (one value for both). Unset: as coarse as the end's alignment allows. */
  precision?: Precision | Partial<EndPrecisions> | null;
}

/** Rendering levels, finest first. A season is shown by its months; decades and centuries by their years. */
type Level = 0 | 1 | 2;
const DAY: Level = 0;
const MONTH: Level = 1;
const YEAR: Level = 2;
const LEVEL: Record<Precision, Level> = PRECISION_RANK;

interface Levels {
  earliest: Level;
  latest: Level;
}

function statedLevels(options: FormatOptions | undefined): Levels {
  const p = options?.precision;
  if (!p) return { earliest: YEAR, latest: YEAR };
  if (typeof p === 'string') return { earliest: LEVEL[p], latest: LEVEL[p] };
  return { earliest: p.earliest ? LEVEL[p.earliest] : YEAR, latest: p.latest ? LEVEL[p.latest] : YEAR };
}

/** The coarsest level a lower end can be shown at: its alignment, capped by what was stated. */
function startLevel(n: number, stated: Level): Level {
  const aligned = isYearStart(n) ? YEAR : isMonthStart(n) ? MONTH : DAY;
  return Math.min(aligned, stated) as Level;
}

function endLevel(n: number, stated: Level): Level {
  const aligned = isYearEnd(n) ? YEAR : isMonthEnd(n) ? MONTH : DAY;
  return Math.min(aligned, stated) as Level;
}

const MS_PER_DAY = 86_400_000;

function approximateEnds(options: FormatOptions | undefined): ApproximateEnds {
  const approximate = options?.approximate ?? false;
  return typeof approximate === 'boolean' ? { earliest: approximate, latest: approximate } : approximate;
}

function assertInterval(earliest: number | null, latest: number | null): void {
  if (earliest !== null) assertDayNum(earliest);
  if (latest !== null) assertDayNum(latest);
  if (earliest !== null && latest !== null && earliest > latest) {
    throw new RangeError(`Empty interval: ${earliest} is after ${latest}`);
  }
}

function isWholeMonth(earliest: number, latest: number): boolean {
  const a = parts(earliest);
  const b = parts(latest);
  return a.year === b.year && a.month === b.month && isMonthStart(earliest) && isMonthEnd(latest);
}

function isWholeYear(earliest: number, latest: number): boolean {
  return isYearStart(earliest) && latest === yearEnd(yearOf(earliest));
}

function isWholeSpanOfYears(earliest: number, latest: number, span: number): boolean {
  const first = yearOf(earliest);
  return first % span === 0 && earliest === yearStart(first) && latest === yearEnd(first + span - 1);
}

// ---------------------------------------------------------------- EDTF

function edtfStart(n: number, stated: Level): string {
  const level = startLevel(n, stated);
  if (level === YEAR) return String(yearOf(n));
  if (level === MONTH) return toIsoDate(n).slice(0, 7);
  return toIsoDate(n);
}

// edtf.js requires an interval's upper end to start no earlier than its lower
// end starts, so '1942-12-20/1942' is invalid: the end drops to a finer
// precision ('1942-12-20/1942-12-31') whenever its coarse form would start
// before `earliest`.
function edtfEnd(n: number, earliest: number | null, stated: Level): string {
  const { year, month } = parts(n);
  const level = endLevel(n, stated);
  const startsAfterEarliest = (start: number) => earliest === null || start >= earliest;
  if (level === YEAR && startsAfterEarliest(yearStart(year))) return String(year);
  if (level >= MONTH && isMonthEnd(n) && startsAfterEarliest(dayNum(year, month, 1))) return toIsoDate(n).slice(0, 7);
  return toIsoDate(n);
}

function composeEdtf(earliest: number | null, latest: number | null, approx: ApproximateEnds, stated: Levels): string {
  const anyApproximate = approx.earliest || approx.latest;
  const mark = (flag: boolean) => (flag ? '~' : '');
  const coarsest = Math.min(stated.earliest, stated.latest);
  if (earliest !== null && latest !== null) {
    // Single dates: one '~' qualifies the whole date.
    if (earliest === latest) return toIsoDate(earliest) + mark(anyApproximate);
    if (coarsest >= MONTH && isWholeMonth(earliest, latest)) return toIsoDate(earliest).slice(0, 7) + mark(anyApproximate);
    if (coarsest >= YEAR && isWholeYear(earliest, latest)) return String(yearOf(earliest)) + mark(anyApproximate);
    // '189X' cannot carry '~' (edtf.js rejects '189X~'), so approximate decades
    // and centuries fall through to an interval such as '1890~/1899~'.
    const byYears = !anyApproximate && coarsest >= YEAR;
    if (byYears && isWholeSpanOfYears(earliest, latest, 10)) return String(yearOf(earliest)).slice(0, 3) + 'X';
    if (byYears && isWholeSpanOfYears(earliest, latest, 100)) return String(yearOf(earliest)).slice(0, 2) + 'XX';
  }
  const start = earliest === null ? '..' : edtfStart(earliest, stated.earliest) + mark(approx.earliest);
  const end = latest === null ? '..' : edtfEnd(latest, earliest, stated.latest) + mark(approx.latest);
  return `${start}/${end}`;
}

/**
 * EDTF (ISO 8601-2) for an inclusive interval; null ends are open ('../1867', '1923/..').
 * The string is parsed back with edtf.js, which normalises it and proves it
 * covers exactly [earliest, latest].
 */
export function toEdtf(earliest: number | null, latest: number | null, options?: FormatOptions): string {
  assertInterval(earliest, latest);
  const composed = composeEdtf(earliest, latest, approximateEnds(options), statedLevels(options));
  // Parsing with edtf.js costs ~0.1 ms; a library has few distinct intervals, so remember them.
  const known = edtfCache.get(composed);
  if (known !== undefined) return known;
  const parsed = edtf(composed);
  const expectedMin = earliest === null ? -Infinity : toUtcMillis(earliest);
  const expectedMax = latest === null ? Infinity : toUtcMillis(latest) + MS_PER_DAY - 1;
  if (parsed.min !== expectedMin || parsed.max !== expectedMax) {
    throw new Error(`EDTF '${composed}' does not cover ${earliest}–${latest}`);
  }
  if (edtfCache.size >= EDTF_CACHE_LIMIT) edtfCache.clear();
  edtfCache.set(composed, parsed.edtf);
  return parsed.edtf;
}

/** Verified EDTF strings by composed form (the composed form determines the interval exactly). */
const edtfCache = new Map<string, string>();
const EDTF_CACHE_LIMIT = 50_000;

// ---------------------------------------------------------------- DACS

function dacsDay(n: number, level: Level): string {
  const { year, month, day } = parts(n);
  if (level === YEAR) return String(year);
  if (level === MONTH) return `${year} ${MONTH_NAMES[month - 1]}`;
  return `${year} ${MONTH_NAMES[month - 1]} ${day}`;
}

const levelOf = (precision: Precision | null | undefined): Level => (precision ? LEVEL[precision] : YEAR);

/** A lower end in DACS wording at its natural (or stated) precision: '1935', '1947 June', '1947 June 12'. */
export function describeStart(n: number, precision?: Precision | null): string {
  return dacsDay(n, startLevel(n, levelOf(precision)));
}

/** An upper end in DACS wording at its natural (or stated) precision: '1942', '1947 June', '1947 June 12'. */
export function describeEnd(n: number, precision?: Precision | null): string {
  return dacsDay(n, endLevel(n, levelOf(precision)));
}

function ordinal(n: number): string {
  const lastTwo = n % 100;
  if (lastTwo >= 11 && lastTwo <= 13) return `${n}th`;
  return n + (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
}

// Both ends of a range share one precision so that the wording reads evenly:
// '1935 January–1942 June' rather than '1935–1942 June'. Ranges take an en dash, as everywhere
// else Circa writes one (DACS's own examples use a hyphen; an archive that wants it can map it).
const RANGE = '–';
function rangeLevel(earliest: number, latest: number, stated: Levels): Level {
  return Math.min(startLevel(earliest, stated.earliest), endLevel(latest, stated.latest)) as Level;
}

function describeClosedInterval(earliest: number, latest: number, stated: Levels): string {
  const coarsest = Math.min(stated.earliest, stated.latest);
  if (earliest === latest) return dacsDay(earliest, DAY);
  if (coarsest >= MONTH && isWholeMonth(earliest, latest)) return dacsDay(earliest, MONTH);
  if (coarsest >= YEAR && isWholeYear(earliest, latest)) return String(yearOf(earliest));
  const firstYear = yearOf(earliest);
  // '1900s' would read as the century, so decades starting a century stay a range.
  if (coarsest >= YEAR && isWholeSpanOfYears(earliest, latest, 10) && firstYear % 100 !== 0) return `${firstYear}s`;
  if (coarsest >= YEAR && isWholeSpanOfYears(earliest, latest, 100)) return `${ordinal(firstYear / 100 + 1)} century`;

  const level = rangeLevel(earliest, latest, stated);
  const a = parts(earliest);
  const b = parts(latest);
  if (level === YEAR || a.year !== b.year) {
    return `${dacsDay(earliest, level)}${RANGE}${dacsDay(latest, level)}`;
  }
  // Same year: DACS does not repeat the year ('1947 June 12–July 3', '1947 June 12–14').
  const startMonth = MONTH_NAMES[a.month - 1];
  const endMonth = MONTH_NAMES[b.month - 1];
  if (level === MONTH) return `${a.year} ${startMonth}${RANGE}${endMonth}`;
  if (a.month === b.month) return `${a.year} ${startMonth} ${a.day}${RANGE}${b.day}`;
  return `${a.year} ${startMonth} ${a.day}${RANGE}${endMonth} ${b.day}`;
}

/**
 * DACS 2.4 wording for an inclusive interval. Mapping:
 * - exact: '1947 June 12', '1947 June', '1947', '1890s', '19th century', '1935–1942',
 *   '1947 June 12–14', '1947 June–August', 'undated' (both ends open);
 * - approximate single year: 'approximately 1925'; any other approximate
 *   interval: 'circa 1935–1942', 'circa 1947 June' (as in DACS examples);
 * - open ends: 'not after 1867', 'not before 1923'. DACS examples also use bare
 *   'before'/'after', but our ends are inclusive (1867 itself is possible), so
 *   we say 'not after', which is exact and matches how bounds are entered.
 */
export function toDacs(earliest: number | null, latest: number | null, options?: FormatOptions): string {
  assertInterval(earliest, latest);
  const approx = approximateEnds(options);
  const stated = statedLevels(options);
  const circa = (flag: boolean) => (flag ? 'circa ' : '');
  if (earliest === null)
    return latest === null ? 'undated' : `not after ${circa(approx.latest)}${dacsDay(latest, endLevel(latest, stated.latest))}`;
  if (latest === null) return `not before ${circa(approx.earliest)}${dacsDay(earliest, startLevel(earliest, stated.earliest))}`;
  const anyApproximate = approx.earliest || approx.latest;
  const byYears = Math.min(stated.earliest, stated.latest) >= YEAR;
  if (anyApproximate && byYears && isWholeYear(earliest, latest)) return `approximately ${yearOf(earliest)}`;
  return circa(anyApproximate) + describeClosedInterval(earliest, latest, stated);
}
