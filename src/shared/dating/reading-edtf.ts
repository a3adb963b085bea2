// EDTF (ISO 8601-2, Library of Congress) for a date as it was written, with what it says about
// itself: '?' uncertain, '~' approximate, '%' both; '1906-21' for a season (21 spring, 22 summer,
// 23 autumn, 24 winter: EDTF level 1); 'a/b' a range, '..' an open end; '[a,b]' one of a set.
// Unlike format.ts, which renders an estimate from its interval, this keeps the written form.
import type { Season } from './calendar-periods';
import { toEdtf } from './format';

const SEASON_CODE: Record<Season, number> = { spring: 21, summer: 22, autumn: 23, winter: 24 };

export interface WrittenDate {
  year: number;
  month?: number;
  day?: number;
  season?: Season;
  /** A holiday or other named span: rendered from its interval. */
  span?: { earliest: number; latest: number };
}

export interface Qualifiers {
  uncertain: boolean;
  approximate: boolean;
}

const two = (n: number) => String(n).padStart(2, '0');

export function qualifierMark(q: Qualifiers): string {
  return q.uncertain && q.approximate ? '%' : q.uncertain ? '?' : q.approximate ? '~' : '';
}

/** '1906', '1906-07', '1906-07-04', '1906-21', each with its mark. */
export function writtenDateEdtf(date: WrittenDate, q: Qualifiers): string {
  if (date.span)
    return toEdtf(date.span.earliest, date.span.latest, { approximate: q.approximate || q.uncertain, precision: 'day' });
  const year = String(date.year).padStart(4, '0');
  const body = date.season
    ? `${year}-${SEASON_CODE[date.season]}`
    : date.month === undefined
      ? year
      : date.day === undefined
        ? `${year}-${two(date.month)}`
        : `${year}-${two(date.month)}-${two(date.day)}`;
  return body + qualifierMark(q);
}

/** 'a/b', '../b', 'a/..': a range between two written dates (either may be open). */
export function rangeEdtf(start: string | null, end: string | null): string {
  return `${start ?? '..'}/${end ?? '..'}`;
}

/** '[a,b]': one of these dates. A member that is a range is written 'a..b', as EDTF sets require. */
export function setEdtf(members: string[]): string {
  return `[${members.map((m) => m.replace('/', '..')).join(',')}]`;
}
