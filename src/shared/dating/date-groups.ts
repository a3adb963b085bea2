// The syntax of archival date expressions: which tokens (date-tokens.ts) make up one date as
// written (a "point": "1906 July 4", "4 août 1906", "July", "10", "Spr. 1906"), and which points
// belong together as a range, a list or alternatives ("1906 July 4-10", "4 & 5 July 1906",
// "1906 or 1907", "- 1906"). A point may lack its year or month ("4-10 July 1906"): what it
// lacks is filled in by archival-dates.ts from its neighbours. No dates are computed here.
import type { Holiday, Season } from './calendar-periods';
import type { Token } from './date-tokens';
import type { WordRole } from './notation-lexicon';

export interface Point {
  year?: number;
  month?: number;
  day?: number;
  season?: Season;
  holiday?: Holiday;
  /** The order the parts were written in, e.g. 'YMD' (archival, year first), 'DMY', 'MDY'. */
  order: string;
  uncertain: boolean;
  approximate: boolean;
  /** Part of it in square brackets: supplied by the cataloguer. */
  supplied: boolean;
  start: number;
  end: number;
}

export type Join = 'range' | 'list' | 'or';

export interface Group {
  points: Point[];
  /** joins[i] is between points[i] and points[i + 1]. */
  joins: Join[];
  /** "- 1906": no start; "1906 -": no end. */
  openStart: boolean;
  openEnd: boolean;
  /** "ca.", "vers", "um", "hacia" … before the whole expression. */
  approximate: boolean;
  start: number;
  end: number;
}

const has = (token: Token | undefined, role: WordRole) => token?.kind === 'word' && token.meaning.roles.has(role);
const isDateWord = (token: Token | undefined) =>
  token?.kind === 'word' && Boolean(token.meaning.month || token.meaning.season || token.meaning.holiday);
const startsPoint = (token: Token | undefined) => token?.kind === 'year' || token?.kind === 'day' || isDateWord(token);

/** Whether the point still lacks the part this token would give it. */
function canTake(point: Point, token: Token | undefined): boolean {
  if (token?.kind === 'year') return point.year === undefined;
  if (token?.kind === 'day') return point.day === undefined && !point.season && !point.holiday;
  if (token?.kind !== 'word') return false;
  const { month, season, holiday } = token.meaning;
  const bare = !point.season && !point.holiday;
  if (month) return bare && point.month === undefined;
  return Boolean(season || holiday) && bare && point.month === undefined && point.day === undefined;
}

interface Parsed<T> {
  value: T;
  next: number;
}

/** One date as written, from `at`; null when the tokens there are not one. */
export function parsePoint(tokens: Token[], at: number): Parsed<Point> | null {
  const point: Point = { order: '', uncertain: false, approximate: false, supplied: false, start: -1, end: -1 };
  let i = at;
  let openBrackets = 0;
  const take = (token: Token, part: string) => {
    if (point.start < 0) point.start = token.start;
    point.end = token.end;
    point.order += part;
  };
  for (; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.kind === 'open-bracket' && (startsPoint(tokens[i + 1]) || point.start >= 0)) {
      openBrackets++;
      point.supplied = true;
      if (point.start < 0) point.start = token.start;
      continue;
    }
    if (token.kind === 'close-bracket' && openBrackets > 0) {
      openBrackets--;
      point.end = token.end;
      continue;
    }
    if (token.kind === 'question' && point.order) {
      point.uncertain = true;
      point.end = token.end;
      continue;
    }
    if (token.kind === 'tilde' && point.order) {
      point.approximate = true;
      point.end = token.end;
      continue;
    }
    if (token.kind === 'year' && point.year === undefined) {
      point.year = token.value;
      take(token, 'Y');
      continue;
    }
    if (token.kind === 'day' && point.day === undefined && !point.season && !point.holiday) {
      point.day = token.value;
      take(token, 'D');
      continue;
    }
    if (token.kind === 'word') {
      const { month, season, holiday } = token.meaning;
      if (month && point.month === undefined && !point.season && !point.holiday) {
        point.month = month.month;
        take(token, month.onlyWithADay ? 'm' : 'M');
        continue;
      }
      if (season && !point.season && !point.holiday && point.month === undefined && point.day === undefined) {
        point.season = season;
        take(token, 'S');
        continue;
      }
      if (holiday && !point.season && !point.holiday && point.month === undefined && point.day === undefined) {
        point.holiday = holiday;
        take(token, 'H');
        continue;
      }
      // "le 4 août", "4 de agosto de 1906", "den 4. August": grammar inside a date. Not when the
      // next part belongs to another date: "8 en 9 november" (en: and), "1950 of 1951" (of: or).
      if (token.meaning.roles.has('filler') && point.order && canTake(point, tokens[i + 1])) continue;
    }
    // "July 4, 1906", "4 July, 1906": a comma before the year of a date that has none yet.
    if (token.kind === 'comma' && point.year === undefined && (point.month || point.day) && tokens[i + 1]?.kind === 'year')
      continue;
    break;
  }
  if (!point.order) return null;
  // "set", "out", "ago" are months only beside a day ("4 set 1906", not "a set 1906").
  if (point.order.includes('m') && point.day === undefined) return null;
  point.order = point.order.replace('m', 'M');
  if (openBrackets > 0 && tokens[i]?.kind === 'close-bracket') {
    point.end = tokens[i].end;
    i++;
  }
  return { value: point, next: i };
}

/** The join after a point, and where the next point starts; null when the expression ends there. */
function parseJoin(tokens: Token[], at: number, between: boolean): Parsed<Join> | null {
  const token = tokens[at];
  let join: Join | null = null;
  let next = at + 1;
  if (token?.kind === 'dash' || has(token, 'range')) join = 'range';
  else if (has(token, 'or')) join = 'or';
  else if (has(token, 'list')) join = between ? 'range' : 'list';
  else if (token?.kind === 'comma') {
    join = 'list';
    // "July 4, 5 and 6", "4, 5 & 6 juillet": an "and" after the comma.
    if (has(tokens[next], 'list')) next++;
  }
  if (!join) return null;
  // "du 4 au 10 juillet", "vom 4. bis 10. Juli", "de 4 a 10 de julio": grammar after the join.
  while (has(tokens[next], 'filler') && !startsPoint(tokens[next])) next++;
  return { value: join, next };
}

/** Where an open end can stop: the end of the text, a line break or a closing bracket or parenthesis. */
function endsExpression(text: string, from: number): boolean {
  return /^[ \t]*(?:$|\n|[)\].;])/.test(text.slice(from));
}

/** The whole expression starting at token `at`, or null. */
export function parseGroup(text: string, tokens: Token[], at: number): Parsed<Group> | null {
  let i = at;
  let approximate = false;
  let between = false;
  const start = tokens[at]?.start ?? 0;
  for (; i < tokens.length; i++) {
    const token = tokens[i];
    if (has(token, 'approximate') && !isDateWord(token)) approximate = true;
    else if (token.kind === 'tilde') approximate = true;
    else if (has(token, 'between')) between = true;
    else if (has(token, 'opening') || (token.kind === 'open-bracket' && !startsPoint(tokens[i + 1]))) continue;
    else break;
  }
  // "- 1906": an open start, where nothing date-like comes before the dash.
  let openStart = false;
  if (tokens[i]?.kind === 'dash' && (at === i || approximate)) {
    openStart = true;
    i++;
  }
  const first = parsePoint(tokens, i);
  if (!first) return null;
  const points = [first.value];
  const joins: Join[] = [];
  let next = first.next;
  let end = first.value.end;
  let openEnd = false;
  while (next < tokens.length) {
    const join = parseJoin(tokens, next, between);
    if (!join) break;
    const point = parsePoint(tokens, join.next);
    if (!point) {
      const dash = tokens[next];
      if (join.value === 'range' && !openStart && points.length === 1 && endsExpression(text, dash.end)) {
        openEnd = true;
        end = dash.end;
      }
      break;
    }
    // A comma starts a list item only for a date with its own month or year ("1906, 1907"), or
    // a day that another join follows ("July 4, 5 and 6"): "Paris, 1906, 12 photographs" is one date.
    const lone = point.value.order === 'D';
    const comma = tokens[next].kind === 'comma';
    if (comma && join.next === next + 1 && lone && !parseJoin(tokens, point.next, between)) break;
    // After a lone day, a comma goes on only to another day ("4, 5 July 1906"): "Station 12, Juni
    // 1906" is a number, then a month.
    if (comma && points[points.length - 1].order === 'D' && !point.value.order.startsWith('D')) break;
    points.push(point.value);
    joins.push(join.value);
    next = point.next;
    end = point.value.end;
  }
  // A trailing "?" or "]" after the last point belongs to the expression.
  while (tokens[next]?.kind === 'close-bracket' && text.slice(start, end).includes('[')) end = tokens[next++].end;
  return { value: { points, joins, openStart, openEnd, approximate, start, end }, next };
}

/**
 * Every date expression in the text, left to right, none overlapping. `accept` says whether an
 * expression makes dates; when it does not ("Box 4 1906"), the search goes on from its next token.
 */
export function parseGroups(text: string, tokens: Token[], accept: (group: Group) => boolean): Group[] {
  const groups: Group[] = [];
  for (let i = 0; i < tokens.length;) {
    const parsed = parseGroup(text, tokens, i);
    if (parsed && parsed.next > i && accept(parsed.value)) {
      groups.push(parsed.value);
      i = parsed.next;
    } else i++;
  }
  return groups;
}
