/**
 * What the offline heuristic's confidence means, and where each number comes from. A clue's stated
 * confidence is how often an interval like it holds the photo's true year (CONFIDENCE_TERMS'
 * evidence confidence), so "of clues stated at 20 %, about one in five contains the truth".
 *
 * Each family of clue is measured on the calibration set (test/support/calibration-set.ts: the
 * corpus' camera photographs with their EXIF dates and greyscale and sepia copies of them) and
 * states the lower end of the 95 % Wilson interval of its hit rate there: never more than the set
 * shows, and close to it once the family was seen often. A family the set never showed (the old
 * print formats, a border, a cyanotype tone) keeps its prior, and says so in MEASURED.
 *
 * Why the measured families state so much: their intervals reach the present (a greyscale scan
 * or a sepia filter can be applied to any photograph), so they hold nearly every true year. They
 * are wide, not weak: a clue like "1850–2026" is almost surely right and says almost nothing,
 * which the interval shows. `npm run bench -- dating` reprints these counts; a test
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

/** The confidence a family stated before it was measured (and still states while it is not). */
const PRIOR: Record<ClueFamily, number> = {
  'monochrome-neutral': 0.1,
  'monochrome-sepia': 0.2,
  'monochrome-blue': 0.12,
  'monochrome-toned': 0.05,
  'colour-faded': 0.25,
  'colour-full': 0.12,
  border: 0.15,
  'format-square': 0.12,
  'format-carte-de-visite': 0.1,
  'format-cabinet-card': 0.1,
  'format-3:2': 0.05,
  'format-4:3': 0.05,
  'format-5x7': 0.05,
  'format-4x5': 0.05,
};

/** Clues of each family on the calibration set, and how many held the true year. */
export const MEASURED: Partial<Record<ClueFamily, { clues: number; hits: number }>> = {
  'colour-faded': { clues: 1, hits: 1 },
  'colour-full': { clues: 30, hits: 30 },
  'format-3:2': { clues: 3, hits: 3 },
  'format-4:3': { clues: 84, hits: 84 },
  'format-5x7': { clues: 6, hits: 6 },
  'monochrome-neutral': { clues: 76, hits: 76 },
  'monochrome-sepia': { clues: 7, hits: 7 },
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

/** The confidence a clue of this family states: measured when it was, else its prior. */
export function statedConfidence(family: ClueFamily): number {
  const m = MEASURED[family];
  if (!m || m.clues === 0) return PRIOR[family];
  return Math.floor(wilsonInterval(m.hits, m.clues)[0] * 100) / 100;
}
