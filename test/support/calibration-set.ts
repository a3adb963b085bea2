/**
 * The heuristic's calibration set (issue 28 item 2): images whose true date is known, and the
 * heuristic's reading of each (scored in calibration-score.ts).
 *
 *  - camera: the shared corpus' camera photographs (../shared/corpus/exif-samples/jpg, top level,
 *    exif-org/ and gps/; Wikimedia Commons and exif.org samples, see their READMEs) that carry an
 *    EXIF DateTimeOriginal. Their true date is that date's year.
 *  - historical: nine prints from 1865 to 1940 with the dates their museum documents
 *    (historical-prints.ts; the files and their attribution in test/fixtures/historical-prints/).
 *  - rendered copies of each of those (rendered-processes.ts: greyscale, sepia, cyanotype, a white
 *    border, crops to old print shapes), made here. A copy keeps its photograph's date; the copies
 *    stand for the greyscale scan, the toned or mounted print and the cropped scan that the
 *    heuristic's clues otherwise take for old processes and formats.
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
import { analysisFromStats, candidateClues, computeImageStats } from '../../src/worker/ai/heuristic';
import { sampleRgb } from '../../src/worker/ai/image';
import type { ClueFamily } from '../../src/worker/ai/heuristic-calibration';
import { HISTORICAL_PRINTS, HISTORICAL_PRINTS_DIR } from './historical-prints';
import { RENDERED_PROCESSES, renderCopies, type RenderedProcess } from './rendered-processes';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CORPUS_JPG = path.resolve(repoRoot, '../shared/corpus/exif-samples/jpg');

/** A true date as a span of years (one year when known to the year). */
export interface TrueDate {
  earliest: number;
  latest: number;
}

export interface CalibrationImage {
  file: string;
  kind: 'camera' | 'historical' | RenderedProcess | 'graphic';
  /** The true date (null for graphics: they should get no clue). */
  truth: TrueDate | null;
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

/** The historical prints with their documented dates. */
export function historicalPrints(): { file: string; truth: TrueDate }[] {
  return HISTORICAL_PRINTS.map((p) => ({
    file: path.join(HISTORICAL_PRINTS_DIR, p.file),
    truth: { earliest: p.earliest, latest: p.latest },
  }));
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

/** Writes the whole set into `dir`: the camera photos and historical prints are used in place, the rest made here. */
export async function writeCalibrationSet(dir: string): Promise<CalibrationImage[]> {
  const set: CalibrationImage[] = [];
  const dated = [
    ...(await cameraPhotos()).map(({ file, year }) => ({
      file,
      kind: 'camera' as const,
      truth: { earliest: year, latest: year },
    })),
    ...historicalPrints().map(({ file, truth }) => ({ file, kind: 'historical' as const, truth })),
  ];
  for (const photo of dated) {
    set.push(photo);
    const base = `${path.basename(photo.file, path.extname(photo.file))}-${path.basename(path.dirname(photo.file))}`;
    const fileFor = (process: RenderedProcess) => path.join(dir, `${base}-${process}.jpg`);
    await renderCopies(photo.file, RENDERED_PROCESSES, fileFor);
    for (const process of RENDERED_PROCESSES) set.push({ file: fileFor(process), kind: process, truth: photo.truth });
  }
  for (const [name, content] of Object.entries(GRAPHICS)) {
    const file = path.join(dir, name);
    await sharp(content).png().toFile(file);
    set.push({ file, kind: 'graphic', truth: null });
  }
  return set;
}

export interface Scored {
  image: CalibrationImage;
  analysis: AiAnalysis;
  /** Every clue the statistics suggest, with its family, before calibration drops the unearned ones. */
  candidates: { family: ClueFamily; clue: AiClue }[];
}

/** The heuristic on every image of the set (its statistics read once for the analysis and the candidates). */
export async function analyseCalibrationSet(set: CalibrationImage[]): Promise<Scored[]> {
  const results: Scored[] = [];
  for (const image of set) {
    const stats = computeImageStats(await sampleRgb(image.file));
    results.push({ image, analysis: analysisFromStats(stats), candidates: candidateClues(stats) });
  }
  return results;
}
