/**
 * The calibration set's old photographs: nine prints from the Getty's Open Content Program with
 * the dates the museum documents, as shipped in stdlib's npm image datasets (reduced copies and
 * their attribution in test/fixtures/historical-prints/). Without them every true date in the set
 * would be after 1990, and what the heuristic states about old photographs measured on nothing
 * like them.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const HISTORICAL_PRINTS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/historical-prints');

export interface HistoricalPrint {
  file: string;
  photographer: string;
  /** The museum's date as a span of years (one year when it gives one). */
  earliest: number;
  latest: number;
}

export const HISTORICAL_PRINTS: readonly HistoricalPrint[] = [
  { file: 'nagasaki-boats.jpg', photographer: 'Felice Beato', earliest: 1865, latest: 1865 },
  { file: 'french-alpine-landscape.jpg', photographer: 'Adolphe Braun', earliest: 1865, latest: 1870 },
  { file: 'black-canyon.jpg', photographer: "Timothy H. O'Sullivan", earliest: 1871, latest: 1871 },
  { file: 'locomotion-house-cat.jpg', photographer: 'Eadweard J. Muybridge', earliest: 1887, latest: 1887 },
  { file: 'march-pastoral.jpg', photographer: 'Peter Henry Emerson', earliest: 1888, latest: 1888 },
  { file: 'airplane-from-above.jpg', photographer: 'Fedele Azari', earliest: 1914, latest: 1929 },
  { file: 'acanthus-mollis.jpg', photographer: 'Karl Blossfeldt', earliest: 1928, latest: 1928 },
  { file: 'allium-oreophilum.jpg', photographer: 'Karl Blossfeldt', earliest: 1928, latest: 1928 },
  { file: 'dust-bowl-home.jpg', photographer: 'Dorothea Lange', earliest: 1935, latest: 1940 },
];
