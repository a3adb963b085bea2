// Dates as archival description and captions write them, in any of seven languages: year first
// (DACS 2.4: "1906 March 17", "1906 July 4-10", "1906 Jul.-Sept.", "1906 Spring"), day or month
// first ("4 août 1906", "agosto 4 1906", "den 4. August 1906", "4 de agosto de 1906"), ranges
// whose ends keep their own precision ("July 1906 - 1919", "1906 July 4 - 1919 March"), lists
// and alternatives ("4 & 5 July 1906", "1906 or 1907"), open ranges ("- 1906"), and the marks
// that qualify them ("?", "[…]", "ca.", "vers", "um"). The syntax is in date-groups.ts; this
// module fills in what a point leaves to its neighbours and turns each date into a reading.
import type { EndPrecisions, FoundDate, Precision } from './types';
import { type Holiday, holidayPeriod, seasonPeriod } from './calendar-periods';
import { isValidDate, yearEnd, yearStart } from './daynum';
import { parseGroups, type Group, type Point } from './date-groups';
import { tokenize } from './date-tokens';
import { CONFIDENCE, type DateRule, type ExtractionContext } from './extraction-kit';
import { toDacs } from './format';
import { HOLIDAY_CONVENTION, SEASON_CONVENTION } from './notation-conventions';
import { partialEnd, partialStart } from './partial-date';
import { FIRST_PHOTOGRAPH_YEAR } from './photo-era';
import { finest } from './precision';
import { rangeEdtf, setEdtf, writtenDateEdtf } from './reading-edtf';

interface ResolvedPoint extends Point {
  year: number;
  /** What was taken from a neighbour, for the explanation ("the year from '10 July 1906'"). */
  borrowed: string[];
}

function nearest(points: Point[], from: number, has: (p: Point) => boolean): Point | null {
  for (let distance = 1; distance < points.length; distance++) {
    const right = points[from + distance];
    if (right && has(right)) return right;
    const left = points[from - distance];
    if (left && has(left)) return left;
  }
  return null;
}

/** Each point with its year (and a day's month) filled in from the nearest point that has it. */
function fillFromNeighbours(text: string, points: Point[]): ResolvedPoint[] | null {
  const resolved: ResolvedPoint[] = [];
  for (const [i, point] of points.entries()) {
    const borrowed: string[] = [];
    let { year, month } = point;
    const quote = (p: Point) => `'${text.slice(p.start, p.end)}'`;
    if (year === undefined) {
      const from = nearest(points, i, (p) => p.year !== undefined);
      if (!from) return null;
      year = from.year!;
      borrowed.push(`the year from ${quote(from)}`);
    }
    if (point.day !== undefined && month === undefined) {
      const from = nearest(points, i, (p) => p.month !== undefined);
      if (!from) return null;
      month = from.month;
      borrowed.push(`the month from ${quote(from)}`);
    }
    if (!isValidDate(year, month ?? 1, point.day ?? 1)) return null;
    resolved.push({ ...point, year, month, borrowed });
  }
  return resolved;
}

interface Span {
  earliest: number;
  latest: number;
  precision: Precision;
}

function pointSpan(p: ResolvedPoint): Span {
  if (p.season) return seasonPeriod(p.season, p.year);
  if (p.holiday) return holidayPeriod(p.holiday, p.year);
  const date = { year: p.year, month: p.month, day: p.day };
  return {
    earliest: partialStart(date),
    latest: partialEnd(date),
    precision: p.day !== undefined ? 'day' : p.month !== undefined ? 'month' : 'year',
  };
}

function pointEdtf(p: ResolvedPoint, group: Group): string {
  const qualifiers = { uncertain: p.uncertain, approximate: p.approximate || group.approximate };
  const span = p.holiday ? pointSpan(p) : undefined;
  return writtenDateEdtf({ year: p.year, month: p.month, day: p.day, season: p.season, span }, qualifiers);
}

/** A range that runs backwards because its year was carried over ("December 1906 - February") crosses the year. */
function crossYear(start: ResolvedPoint, end: ResolvedPoint): [ResolvedPoint, ResolvedPoint] {
  if (pointSpan(start).earliest <= pointSpan(end).latest) return [start, end];
  const endBorrowed = end.borrowed.some((b) => b.startsWith('the year'));
  const startBorrowed = start.borrowed.some((b) => b.startsWith('the year'));
  if (endBorrowed && isValidDate(end.year + 1, end.month ?? 1, end.day ?? 1))
    return [start, { ...end, year: end.year + 1, borrowed: [...end.borrowed, 'the next year, since the range crosses it'] }];
  if (startBorrowed && isValidDate(start.year - 1, start.month ?? 1, start.day ?? 1))
    return [
      { ...start, year: start.year - 1, borrowed: [...start.borrowed, 'the year before, since the range crosses it'] },
      end,
    ];
  return [start, end];
}

const ORDER_WORDS: Record<string, string> = {
  Y: 'a year',
  YM: 'year first (archival order, DACS 2.4)',
  YMD: 'year first (archival order, DACS 2.4)',
  YDM: 'year first, then day and month',
  YS: 'year first (archival order, DACS 2.4)',
  DMY: 'day, month, year',
  MDY: 'month, day, year',
  MY: 'month and year',
  SY: 'season and year',
};

interface Item {
  start: ResolvedPoint | null;
  end: ResolvedPoint | null;
}

/** Points joined by a dash or "to" are one range; the others are dates of a list or alternatives. */
function itemsOf(group: Group, points: ResolvedPoint[]): Item[] | null {
  if (group.openStart) return points.length === 1 ? [{ start: null, end: points[0] }] : null;
  if (group.openEnd) return points.length === 1 ? [{ start: points[0], end: null }] : null;
  const items: Item[] = [];
  for (let i = 0; i < points.length; i++) {
    if (group.joins[i] === 'range') {
      if (group.joins[i + 1] === 'range') return null; // "1906 - 1910 - 1915" is not a date
      const [start, end] = crossYear(points[i], points[i + 1]);
      items.push({ start, end });
      i++;
    } else items.push({ start: points[i], end: points[i] });
  }
  return items;
}

function confidenceOf(item: Item, precision: Precision, single: boolean): number {
  if (!item.start || !item.end) return CONFIDENCE.openEnded;
  if (item.start.holiday || item.end.holiday) return CONFIDENCE.holiday;
  const byPrecision: Record<Precision, number> = {
    day: CONFIDENCE.writtenDate,
    month: CONFIDENCE.monthYear,
    season: CONFIDENCE.season,
    year: single ? CONFIDENCE.year : CONFIDENCE.yearRange,
    decade: CONFIDENCE.decade,
    century: CONFIDENCE.century,
  };
  return byPrecision[precision];
}

function explain(text: string, group: Group, item: Item, earliest: number, latest: number, ends: EndPrecisions): string {
  const written = text.slice(group.start, group.end);
  const points = [item.start, item.end].filter((p): p is ResolvedPoint => p !== null);
  const first = group.points[0];
  const notes: string[] = [];
  const order = ORDER_WORDS[first.order];
  if (order && first.order !== 'Y') notes.push(`written ${order}`);
  if (points.length === 2 && points[0] !== points[1])
    notes.push(`each end as precise as written (${ends.earliest ?? 'open'} to ${ends.latest ?? 'open'})`);
  if (!item.start) notes.push('no start is written: open before');
  if (!item.end) notes.push('no end is written: open after');
  for (const p of new Set(points)) for (const b of p.borrowed) notes.push(`${b} for '${text.slice(p.start, p.end)}'`);
  if (points.some((p) => p.uncertain)) notes.push("'?' marks it uncertain");
  if (points.some((p) => p.supplied)) notes.push('square brackets: supplied by the cataloguer');
  if (group.approximate || points.some((p) => p.approximate)) notes.push('marked approximate');
  if (group.points.length > 1 && group.joins.includes('or')) notes.push('one of the alternatives written');
  else if (group.points.length > 1 && group.joins.includes('list')) notes.push('one of the dates of a list');
  const approximate = group.approximate || points.some((p) => p.approximate || p.uncertain);
  const dacs = toDacs(earliest, latest, { approximate, precision: ends });
  return `written date '${written}' read as ${dacs}${notes.length ? ` (${notes.join('; ')})` : ''}`;
}

function conventionOf(item: Item): string | undefined {
  const points = [item.start, item.end].filter((p): p is ResolvedPoint => p !== null);
  if (points.some((p) => p.season)) return SEASON_CONVENTION;
  const holiday = points.find((p) => p.holiday)?.holiday as Holiday | undefined;
  return holiday ? HOLIDAY_CONVENTION[holiday] : undefined;
}

function readGroup(text: string, group: Group, context: ExtractionContext): FoundDate[] | null {
  const points = fillFromNeighbours(text, group.points);
  if (!points) return null;
  // A year alone is for year-expressions.ts, unless it carries a mark of its own ("1906?", "[1906]").
  if (points.length === 1 && points[0].order === 'Y' && !group.openStart && !group.openEnd) {
    const p = points[0];
    if (!p.uncertain && !p.supplied && !p.approximate && !group.approximate) return null;
  }
  const items = itemsOf(group, points);
  if (!items) return null;
  const readings: FoundDate[] = [];
  for (const item of items) {
    const start = item.start ? pointSpan(item.start) : null;
    const end = item.end ? pointSpan(item.end) : null;
    const earliest = start?.earliest ?? yearStart(FIRST_PHOTOGRAPH_YEAR);
    const latest = end?.latest ?? yearEnd(context.referenceYear);
    if (earliest > latest) return null;
    const ends: EndPrecisions = { earliest: start?.precision ?? null, latest: end?.precision ?? null };
    const precision = finest([ends.earliest, ends.latest])!;
    const single = item.start === item.end;
    const edtf = single
      ? pointEdtf(item.start!, group)
      : rangeEdtf(item.start ? pointEdtf(item.start, group) : null, item.end ? pointEdtf(item.end, group) : null);
    const uncertain = [item.start, item.end].some((p) => p?.uncertain);
    const approximate = group.approximate || uncertain || [item.start, item.end].some((p) => p?.approximate);
    readings.push({
      text: text.slice(group.start, group.end),
      index: group.start,
      earliest,
      latest,
      precision,
      approximate,
      confidence: confidenceOf(item, precision, single),
      reason: explain(text, group, item, earliest, latest, ends),
      edtf,
      ...(ends.earliest !== ends.latest ? { ends } : {}),
      ...(uncertain ? { uncertain } : {}),
      ...(conventionOf(item) ? { convention: conventionOf(item) } : {}),
    });
  }
  if (readings.length > 1) {
    const set = setEdtf(readings.map((r) => r.edtf!));
    for (const r of readings) r.set = set;
  }
  return readings;
}

export const findArchivalDates: DateRule = (text, context) => {
  const tokens = tokenize(text);
  const found: FoundDate[] = [];
  parseGroups(text, tokens, (group) => {
    const readings = readGroup(text, group, context);
    if (readings) found.push(...readings);
    return readings !== null;
  });
  return found;
};
