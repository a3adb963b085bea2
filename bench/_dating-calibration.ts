/**
 * `bench -- dating`'s calibration part: the offline heuristic on the calibration set
 * (test/support/calibration-set.ts: the corpus' camera photos with their EXIF dates, greyscale
 * and sepia copies of them with the same true dates, and drawings/diagrams/flat graphics that
 * should get no clue). Reports the hit rate and mean error of its intervals, and, per stated
 * confidence, the share of clues that held the true year.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { analyzeHeuristically } from '../src/worker/ai/heuristic';
import { scoreCalibration, writeCalibrationSet, type CalibrationReport } from '../test/support/calibration-set';
import { formatPercent as pct } from '../src/shared/format-percent';
import { round } from './_util';

export async function heuristicCalibration(): Promise<CalibrationReport> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-calibration-'));
  try {
    const set = await writeCalibrationSet(dir);
    const results = [];
    for (const image of set) results.push({ image, analysis: await analyzeHeuristically(image.file) });
    const report = scoreCalibration(results);
    console.log(
      `\nHeuristic calibration: ${report.photos} photographs with known dates (camera, greyscale and sepia copies), ${report.graphics} graphics`,
    );
    console.log(
      `  intervals given: ${report.dated}/${report.photos}; hold the true year: ${pct(report.hitRate)}; mean error ${round(report.meanErrorYears)} years; mean stated confidence ${pct(report.meanConfidence)}`,
    );
    for (const b of report.byStatedConfidence) {
      console.log(`  clues stated at ${pct(b.stated)}: ${b.clues}, of which ${pct(b.hitRate)} held the true year`);
    }
    console.log(`  graphics given a clue: ${report.graphicsWithClues}/${report.graphics}`);
    return report;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
