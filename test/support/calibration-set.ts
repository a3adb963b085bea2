/**
 * The heuristic's calibration set (issue 28 item 2): images whose true date is known, and how to
 * score the visual analysis against them.
 *
 *  - camera: the shared corpus' camera photographs (../shared/corpus/exif-samples/jpg, top level,
 *    exif-org/ and gps/; Wikimedia Commons and exif.org samples, see their READMEs) that carry an
 *    EXIF DateTimeOriginal. Their true year is that date's.
 *  - greyscale and sepia: copies of each of those made here with sharp (greyscale; greyscale
 *    tinted brown). A filter changes the look, not the date: their true year is the camera's. They
 *    stand for the digital "old look" and the greyscale scan of a colour print that the heuristic's
 *    tone clues otherwise take for old processes.
 *  - graphics: drawings, diagrams and flat graphics made here (a blue rectangle, a line drawing, a
 *    box diagram, a flat screenshot-like panel). They are not photographs: the right answer is no
 *    clue at all, so they are scored apart.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import exifr from 'exifr';
import sharp from 'sharp';
import type { AiAnalysis, AiClue } from '../../src/shared/ai/schema';
import { analysisFromStats, computeImageStats, familyClues } from '../../src/worker/ai/heuristic';
import { sampleRgb } from '../../src/worker/ai/image';
import type { ClueFamily } from '../../src/worker/ai/heuristic-calibration';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CORPUS_JPG = path.resolve(repoRoot, '../shared/corpus/exif-samples/jpg');

export interface CalibrationImage {
  file: string;
  kind: 'camera' | 'greyscale' | 'sepia' | 'graphic';
  /** The true year (null for graphics: they should get no clue). */
  year: number | null;
}

/** The corpus' camera photos with an EXIF capture date, and that date's year. */
export async function cameraPhotos(): Promise<{ file: string; year: number }[]> {
  const dirs = [CORPUS_JPG, path.join(CORPUS_JPG, 'exif-org'), path.join(CORPUS_JPG, 'gps')];
  const out: { file: string; year: number }[] = [];
  for (const dir of dirs) {
    for (const name of fs.readdirSync(dir).sort()) {
      if (!/\.jpe?g$/i.test(name)) continue;
      const file = path.join(dir, name);
      const tags = (await exifr.parse(file, ['DateTimeOriginal', 'Make']).catch(() => null)) as {
        DateTimeOriginal?: Date;
        Make?: string;
      } | null;
      const year = tags?.DateTimeOriginal instanceof Date ? tags.DateTimeOriginal.getUTCFullYear() : null;
      if (year && year >= 1990 && tags?.Make) out.push({ file, year });
    }
  }
  return out;
}

const svg = (w: number, h: number, body: string) =>
  Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${body}</svg>`);

/** Drawings, diagrams and flat graphics: not photographs. */
export const GRAPHICS: Record<string, Buffer> = {
  'blue-rectangle.png': svg(640, 480, '<rect width="640" height="480" fill="#5a78a8"/>'),
  'line-drawing.png': svg(
    600,
    800,
    '<rect width="600" height="800" fill="#fbfaf6"/><g stroke="#222" stroke-width="3" fill="none"><path d="M100 700 L300 150 L500 700 Z"/><circle cx="300" cy="420" r="90"/><path d="M60 760 Q300 600 540 760"/></g>',
  ),
  'box-diagram.png': svg(
    800,
    500,
    '<rect width="800" height="500" fill="#ffffff"/><g stroke="#333" stroke-width="2"><rect x="60" y="60" width="200" height="100" fill="#f2c14e"/><rect x="540" y="60" width="200" height="100" fill="#7fb069"/><rect x="300" y="320" width="200" height="100" fill="#d1495b"/><path d="M260 110 L540 110 M400 160 L400 320"/></g>',
  ),
  'screenshot.png': svg(
    1024,
    640,
    '<rect width="1024" height="640" fill="#eceff1"/><rect width="1024" height="48" fill="#263238"/><rect x="24" y="80" width="280" height="520" fill="#ffffff"/><rect x="330" y="80" width="670" height="240" fill="#ffffff"/><g fill="#90a4ae"><rect x="48" y="110" width="200" height="14"/><rect x="48" y="140" width="160" height="14"/><rect x="48" y="170" width="220" height="14"/><rect x="360" y="110" width="500" height="18"/></g>',
  ),
};

/** Writes the whole set into `dir`: the camera photos are used in place, the rest made here. */
export async function writeCalibrationSet(dir: string): Promise<CalibrationImage[]> {
  const set: CalibrationImage[] = [];
  for (const { file, year } of await cameraPhotos()) {
    set.push({ file, kind: 'camera', year });
    const base = path.basename(file, path.extname(file));
    const grey = path.join(dir, `${base}-${path.basename(path.dirname(file))}-greyscale.jpg`);
    await sharp(file).rotate().greyscale().jpeg({ quality: 90 }).toFile(grey);
    set.push({ file: grey, kind: 'greyscale', year });
    const sepia = path.join(dir, `${base}-${path.basename(path.dirname(file))}-sepia.jpg`);
    await sharp(file).rotate().greyscale().tint({ r: 112, g: 66, b: 20 }).jpeg({ quality: 90 }).toFile(sepia);
    set.push({ file: sepia, kind: 'sepia', year });
  }
  for (const [name, content] of Object.entries(GRAPHICS)) {
    const file = path.join(dir, name);
    await sharp(content).png().toFile(file);
    set.push({ file, kind: 'graphic', year: null });
  }
  return set;
}

export interface Scored {
  image: CalibrationImage;
  analysis: AiAnalysis;
  /** Its clues with the family each is calibrated as. */
  families: { family: ClueFamily; clue: AiClue }[];
}

/** The heuristic on every image of the set (its statistics read once for the analysis and the families). */
export async function analyseCalibrationSet(set: CalibrationImage[]): Promise<Scored[]> {
  const results: Scored[] = [];
  for (const image of set) {
    const stats = computeImageStats(await sampleRgb(image.file));
    results.push({ image, analysis: analysisFromStats(stats), families: familyClues(stats) });
  }
  return results;
}

/** Clues or analyses, grouped by what they state: how many, the share that held the true year, and by how much the rest missed. */
export interface Coverage {
  stated: number;
  clues: number;
  hitRate: number;
  /** Mean years from the true year to the interval (0 inside it). */
  meanErrorYears: number;
}

function coverageBy<T>(items: T[], stated: (t: T) => number, missOf: (t: T) => number): Coverage[] {
  const groups = new Map<number, number[]>();
  for (const t of items) {
    const key = Math.round(stated(t) * 100) / 100;
    groups.set(key, [...(groups.get(key) ?? []), missOf(t)]);
  }
  return [...groups]
    .sort((a, b) => a[0] - b[0])
    .map(([s, misses]) => ({
      stated: s,
      clues: misses.length,
      hitRate: misses.filter((m) => m === 0).length / misses.length,
      meanErrorYears: misses.reduce((a, b) => a + b, 0) / misses.length,
    }));
}

/** Years from the truth to the interval (0 inside it); open ends reach any year. */
function miss(year: number, earliest: number | null, latest: number | null): number {
  if (earliest !== null && year < earliest) return earliest - year;
  if (latest !== null && year > latest) return year - latest;
  return 0;
}

export interface CalibrationReport {
  /** Photographs (camera, greyscale, sepia) the analysis gave an interval. */
  dated: number;
  photos: number;
  /** Share of those intervals that hold the true year, and the mean years by which they miss it (0 inside). */
  hitRate: number;
  meanErrorYears: number;
  /** Mean stated confidence of those intervals. */
  meanConfidence: number;
  /** Each clue, by its stated confidence: how many, what share held the true year, the mean miss. */
  byStatedConfidence: Coverage[];
  /** Each overall interval (the evidence the analysis becomes), by its stated confidence. */
  overallByStatedConfidence: Coverage[];
  /** Each family of clue: how many, and how many held the true year (heuristic-calibration.ts's MEASURED). */
  byFamily: { family: ClueFamily; clues: number; hits: number }[];
  /** Graphics the analysis still gave a clue (should be 0). */
  graphicsWithClues: number;
  graphics: number;
}

export function scoreCalibration(results: Scored[]): CalibrationReport {
  const photos = results.filter((r) => r.image.year !== null);
  const dated = photos.filter((r) => r.analysis.earliestYear !== null || r.analysis.latestYear !== null);
  const misses = dated.map((r) => miss(r.image.year!, r.analysis.earliestYear, r.analysis.latestYear));
  const clues = photos.flatMap((r) =>
    r.families
      .filter(({ clue }) => clue.earliestYear !== null || clue.latestYear !== null)
      .map(({ family, clue }) => ({ family, clue, miss: miss(r.image.year!, clue.earliestYear, clue.latestYear) })),
  );
  const families = new Map<ClueFamily, { clues: number; hits: number }>();
  for (const c of clues) {
    const f = families.get(c.family) ?? { clues: 0, hits: 0 };
    f.clues++;
    if (c.miss === 0) f.hits++;
    families.set(c.family, f);
  }
  const graphics = results.filter((r) => r.image.year === null);
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  return {
    dated: dated.length,
    photos: photos.length,
    hitRate: dated.length ? misses.filter((m) => m === 0).length / dated.length : 1,
    meanErrorYears: mean(misses),
    meanConfidence: mean(dated.map((r) => r.analysis.confidence)),
    byStatedConfidence: coverageBy(
      clues,
      (c) => c.clue.confidence,
      (c) => c.miss,
    ),
    overallByStatedConfidence: coverageBy(
      dated.map((r, i) => ({ r, miss: misses[i] })),
      (d) => d.r.analysis.confidence,
      (d) => d.miss,
    ),
    byFamily: [...families].sort((a, b) => a[0].localeCompare(b[0])).map(([family, f]) => ({ family, ...f })),
    graphicsWithClues: graphics.filter((r) => r.analysis.clues.length > 0 || r.analysis.earliestYear !== null).length,
    graphics: graphics.length,
  };
}
