// How finely a date was stated, per end. An evidence row stores one precision for both ends
// ('day'), or one per end when they differ ('month/year': "between June 1923 and 1925").
import type { EndPrecisions, Precision } from './types';

export const PRECISIONS: readonly Precision[] = ['day', 'month', 'season', 'year', 'decade', 'century'];

/** Finest first; a season is as fine as a month, decades and centuries are shown by their years. */
export const PRECISION_RANK: Record<Precision, 0 | 1 | 2> = { day: 0, month: 1, season: 1, year: 2, decade: 2, century: 2 };

const isPrecision = (text: string): text is Precision => (PRECISIONS as readonly string[]).includes(text);

/** The finest of several stated precisions (null when none is stated). */
export function finest(precisions: (Precision | null | undefined)[]): Precision | null {
  let best: Precision | null = null;
  for (const p of precisions) if (p && (best === null || PRECISION_RANK[p] < PRECISION_RANK[best])) best = p;
  return best;
}

/** The stored form: 'day', or 'month/year' when the ends differ. */
export function encodePrecision(p: EndPrecisions): string | null {
  if (p.earliest && p.latest && p.earliest !== p.latest) return `${p.earliest}/${p.latest}`;
  return p.earliest ?? p.latest;
}

/** Reads the stored form back; anything unknown counts as not stated. */
export function decodePrecision(text: string | null | undefined): EndPrecisions {
  const [a, b] = (text ?? '').split('/');
  const first = a && isPrecision(a) ? a : null;
  const second = b === undefined ? first : isPrecision(b) ? b : null;
  return { earliest: first, latest: second };
}
