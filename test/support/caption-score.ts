/**
 * How well a reading of a caption matches its true text: character accuracy, and whether the
 * dates a person would find in the caption were found in what the machine read (and no others).
 * Shared by the caption-set test and `bench -- dating`, so both count the same way.
 */
import { extractDates, type FoundDate } from '../../src/shared/dating';
import { extractDatesFromOcr } from '../../src/shared/dating/ocr-normalise';
import type { CaptionCase, CaptionKind } from './caption-set';

/** Fixed, so two-digit years read the same whenever the tests run. */
export const REFERENCE_YEAR = 2025;

/** Whitespace collapsed, apostrophes and quotes folded: a person reads ’ and ' alike. */
function comparable(s: string): string {
  return s
    .replace(/[’‘′`´]/g, "'")
    .replace(/[“”″]/g, '"')
    .replace(/\s+/g, ' ')
    .trim();
}

export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length];
}

/** 1 − edit distance / length of the truth, floored at 0 (extra noise read from a photo counts). */
export function characterAccuracy(read: string, truth: string): number {
  const t = comparable(truth);
  return Math.max(0, 1 - levenshtein(comparable(read), t) / Math.max(1, t.length));
}

const key = (d: Pick<FoundDate, 'earliest' | 'latest'>) => `${d.earliest}/${d.latest}`;

export interface CaptionScore {
  accuracy: number;
  /** Dated captions: every date of the true text was found. */
  recovered: boolean;
  /** Dates found that the true text does not carry (on an undated caption: a false date). */
  wrongDates: number;
}

export function scoreReading(c: Pick<CaptionCase, 'text' | 'dated'>, read: string): CaptionScore {
  const truth = new Set(extractDates(c.text, { referenceYear: REFERENCE_YEAR }).map(key));
  const found = new Set(extractDatesFromOcr(read, { referenceYear: REFERENCE_YEAR }).map(key));
  return {
    accuracy: characterAccuracy(read, c.text),
    recovered: c.dated && [...truth].every((k) => found.has(k)),
    wrongDates: [...found].filter((k) => !truth.has(k)).length,
  };
}

export interface KindSummary {
  kind: CaptionKind | 'all printed';
  images: number;
  medianAccuracy: number;
  dated: number;
  recovered: number;
  undated: number;
  falseDates: number;
  /** Wrong dates found on dated captions (misreadings such as 1942 → 1912). */
  wrongOnDated: number;
}

const median = (xs: number[]) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

export function summarise(kind: KindSummary['kind'], rows: { c: CaptionCase; s: CaptionScore }[]): KindSummary {
  const dated = rows.filter((r) => r.c.dated);
  const undated = rows.filter((r) => !r.c.dated);
  return {
    kind,
    images: rows.length,
    medianAccuracy: median(rows.map((r) => r.s.accuracy)),
    dated: dated.length,
    recovered: dated.filter((r) => r.s.recovered).length,
    undated: undated.length,
    falseDates: undated.filter((r) => r.s.wrongDates > 0).length,
    wrongOnDated: dated.filter((r) => r.s.wrongDates > 0).length,
  };
}

/** One summary per kind, then one over every printed caption. */
export function summariseByKind(rows: { c: CaptionCase; s: CaptionScore }[]): KindSummary[] {
  const kinds = [...new Set(rows.map((r) => r.c.kind))];
  return [
    ...kinds.map((k) =>
      summarise(
        k,
        rows.filter((r) => r.c.kind === k),
      ),
    ),
    summarise(
      'all printed',
      rows.filter((r) => r.c.printed),
    ),
  ];
}
