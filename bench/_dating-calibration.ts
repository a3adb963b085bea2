/**
 * `bench -- dating`'s calibration part: the offline heuristic on the calibration set
 * (test/support/calibration-set.ts: the corpus' camera photos with their EXIF dates, greyscale
 * and sepia copies of them with the same true dates, and drawings/diagrams/flat graphics that
 * should get no clue). Reports the hit rate and mean error of its intervals and, per stated
 * confidence, how many clues (and overall intervals) there were, the share that held the true
 * year and the mean miss; then each clue family's counts, which
 * src/worker/ai/heuristic-calibration.ts's MEASURED holds.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  analyseCalibrationSet,
  scoreCalibration,
  writeCalibrationSet,
  type CalibrationReport,
  type Coverage,
} from '../test/support/calibration-set';
import { statedConfidence } from '../src/worker/ai/heuristic-calibration';
import { formatPercent as pct } from '../src/shared/format-percent';
import { round } from './_util';

export async function heuristicCalibration(): Promise<CalibrationReport> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-calibration-'));
  try {
    const report = scoreCalibration(await analyseCalibrationSet(await writeCalibrationSet(dir)));
    console.log(
      `\nHeuristic calibration: ${report.photos} photographs with known dates (camera, greyscale and sepia copies), ${report.graphics} graphics`,
    );
    console.log(
      `  intervals given: ${report.dated}/${report.photos}; hold the true year: ${pct(report.hitRate)}; mean error ${round(report.meanErrorYears)} years; mean stated confidence ${pct(report.meanConfidence)}`,
    );
    const line = (what: string, b: Coverage) =>
      console.log(
        `  ${what} stated at ${pct(b.stated)}: ${b.clues}, ${pct(b.hitRate)} held the true year, mean miss ${round(b.meanErrorYears)} years`,
      );
    for (const b of report.byStatedConfidence) line('clues', b);
    for (const b of report.overallByStatedConfidence) line('overall intervals', b);
    for (const f of report.byFamily) {
      console.log(`  family ${f.family}: ${f.hits}/${f.clues} held the true year; states ${pct(statedConfidence(f.family))}`);
    }
    console.log(`  graphics given a clue: ${report.graphicsWithClues}/${report.graphics}`);
    return report;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
