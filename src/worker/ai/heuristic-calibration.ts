/**
 * What the offline heuristic's confidence means, and where each number comes from. A clue's stated
 * confidence is how often an interval like it holds the photo's true date (CONFIDENCE_TERMS'
 * evidence confidence), so "of clues stated at 20 %, about one in five contains the truth".
 *
 * Each family of clue, that is each kind of claim ("colour: 1940 to now", "a white border: 1920 to
 * 1970", "a carte-de-visite shape: 1859 to 1890"), is measured on the calibration set
 * (test/support/calibration-set.ts): the corpus' camera photographs with their EXIF dates, nine
 * historical prints from 1865 to 1940 with the dates their museum documents, and copies of all of
 * them rendered in other processes (greyscale, sepia, cyanotype, a white border, crops to old print
 * shapes), which keep the date of the photograph they copy. A family states the lower end of the
 * 95 % Wilson interval of its hit rate there: never more than the set shows, close to it once the
 * family was seen often, and nothing at all when the set never showed it or it missed too often
 * (zero: the heuristic then gives no such clue). There is no prior: a claim nobody measured is not
 * made.
 *
 * Why the open-ended families state so much: their intervals reach the present (a greyscale scan
 * or a sepia filter can be applied to any photograph), so they hold nearly every true date. They
 * are wide, not weak: a clue like "1850–2026" is almost surely right and says almost nothing,
 * which the interval shows. The closed periods (border, old print shapes) miss whenever a later
 * photograph has the look, which the rendered copies show, and state little or nothing.
 * `npm run bench -- dating` reprints these counts; a test
 * (test/dating/heuristic-calibration.test.ts) fails when the heuristic and this table part.
 */

export type ClueFamily =
  | 'monochrome-neutral'
  | 'monochrome-sepia'
  | 'monochrome-blue'
  | 'monochrome-toned'
  | 'colour-faded'
  | 'colour-full'
  | 'border'
  | 'format-square'
  | 'format-carte-de-visite'
  | 'format-cabinet-card'
  | 'format-3:2'
  | 'format-4:3'
  | 'format-5x7'
  | 'format-4x5';

/**
 * The two kinds of photograph the set measures apart: old (true date before 1950: the historical
 * prints and their copies) and modern (the camera photographs and their copies). An archive's mix
 * of the two is unknown, so a claim states what it earned on the kind where it did worst.
 */
export type Era = 'old' | 'modern';
export const OLD_BEFORE = 1950;

/** Clues of each family on the calibration set, by era, and how many held the whole true date. */
export const MEASURED: Partial<Record<ClueFamily, Partial<Record<Era, { clues: number; hits: number }>>>> = {
  border: { modern: { clues: 38, hits: 0 }, old: { clues: 9, hits: 3 } },
  'colour-faded': { modern: { clues: 10, hits: 10 } },
  'colour-full': { modern: { clues: 165, hits: 165 } },
  'format-3:2': { modern: { clues: 5, hits: 5 } },
  'format-4:3': { modern: { clues: 140, hits: 140 } },
  'format-4x5': { modern: { clues: 38, hits: 38 }, old: { clues: 14, hits: 6 } },
  'format-5x7': { modern: { clues: 10, hits: 10 } },
  'format-cabinet-card': { modern: { clues: 38, hits: 0 }, old: { clues: 9, hits: 3 } },
  'format-carte-de-visite': { modern: { clues: 38, hits: 0 }, old: { clues: 9, hits: 5 } },
  'format-square': { modern: { clues: 38, hits: 0 }, old: { clues: 9, hits: 0 } },
  'monochrome-blue': { modern: { clues: 38, hits: 38 }, old: { clues: 9, hits: 9 } },
  'monochrome-neutral': { modern: { clues: 38, hits: 38 }, old: { clues: 9, hits: 9 } },
  'monochrome-sepia': { modern: { clues: 88, hits: 88 }, old: { clues: 63, hits: 63 } },
  'monochrome-toned': { modern: { clues: 3, hits: 3 } },
};

/** The 95 % Wilson score interval of a hit rate of `hits` in `n` ([0, 1] when n is 0). */
export function wilsonInterval(hits: number, n: number, z = 1.96): [number, number] {
  if (n === 0) return [0, 1];
  const p = hits / n;
  const z2 = z * z;
  const centre = p + z2 / (2 * n);
  const margin = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [(centre - margin) / (1 + z2 / n), (centre + margin) / (1 + z2 / n)];
}

/** The lower end of the 95 % Wilson interval of `hits` in `n`, rounded down to whole percents. */
export const earnedConfidence = (hits: number, n: number): number => Math.floor(wilsonInterval(hits, n)[0] * 100) / 100;

/** The confidence a clue of this family states: what it earned on the era where it did worst, 0 (no clue) when unmeasured. */
export function statedConfidence(family: ClueFamily): number {
  const eras = Object.values(MEASURED[family] ?? {}).filter((m) => m.clues > 0);
  if (eras.length === 0) return 0;
  return Math.min(...eras.map((m) => earnedConfidence(m.hits, m.clues)));
}
