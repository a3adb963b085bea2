/**
 * `bench -- dating`'s calibration part: the offline heuristic on the calibration set
 * (test/support/calibration-set.ts: the corpus' camera photos with their EXIF dates, nine
 * historical prints of 1865–1940 with their museum dates, copies of both rendered in other
 * processes and shapes with the same true dates, and drawings/diagrams/flat graphics that should
 * get no clue). Reports the hit rate and mean error of its intervals overall and per kind of image;
 * per stated confidence, how many clues (and overall intervals) there were, the share that held
 * the true date and the mean miss; then each kind of claim (family of clue) on old and modern
 * photographs, which src/worker/ai/heuristic-calibration.ts's MEASURED holds, and what it states.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { analyseCalibrationSet, writeCalibrationSet } from '../test/support/calibration-set';
import { scoreCalibration, type CalibrationReport, type Coverage } from '../test/support/calibration-score';
import { formatPercent as pct } from '../src/shared/format-percent';
import { round } from './_util';

const span = (earliest: number | null, latest: number | null) =>
  `${earliest ?? '..'}–${latest === new Date().getFullYear() ? 'now' : (latest ?? '..')}`;

export async function heuristicCalibration(): Promise<CalibrationReport> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-calibration-'));
  try {
    const report = scoreCalibration(await analyseCalibrationSet(await writeCalibrationSet(dir)));
    console.log(
      `\nHeuristic calibration: ${report.photos} photographs with known dates (camera photos, historical prints, rendered copies of both), ${report.graphics} graphics`,
    );
    console.log(
      `  intervals given: ${report.dated}/${report.photos}; hold the true date: ${pct(report.hitRate)}; mean error ${round(report.meanErrorYears)} years; mean stated confidence ${pct(report.meanConfidence)}`,
    );
    for (const k of report.byKind) {
      console.log(
        `  ${k.kind}: ${k.dated}/${k.images} given an interval, ${pct(k.hitRate)} held the true date, mean miss ${round(k.meanErrorYears)} years`,
      );
    }
    const line = (what: string, b: Coverage) =>
      console.log(
        `  ${what} stated at ${pct(b.stated)}: ${b.clues}, ${pct(b.hitRate)} held the true date, mean miss ${round(b.meanErrorYears)} years`,
      );
    for (const b of report.byStatedConfidence) line('clues', b);
    for (const b of report.overallByStatedConfidence) line('overall intervals', b);
    console.log('  kind of claim (family, interval): per era, held/count, hit rate, mean miss; the confidence it states');
    for (const f of report.byFamily) {
      const eras = Object.entries(f.byEra)
        .map(([era, e]) => `${era} ${e.hits}/${e.clues} (${pct(e.hitRate)}, mean miss ${round(e.meanErrorYears)} y)`)
        .join('; ');
      const states = f.stated > 0 ? `states ${pct(f.stated)}` : 'earned nothing: no clue';
      console.log(`  ${f.family} ${span(f.earliestYear, f.latestYear)}: ${eras}; ${states}`);
    }
    console.log(`  graphics given a clue: ${report.graphicsWithClues}/${report.graphics}`);
    return report;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
