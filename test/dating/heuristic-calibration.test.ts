/**
 * The offline heuristic earns its place, measured (issue 28 item 2), on the calibration set
 * (test/support/calibration-set.ts): its clues hold the true year as often as their stated
 * confidence says (no less and no more, within the measurement's 95 % interval), colour never
 * dates a photograph earlier, and drawings, diagrams and flat graphics get no clue.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseCalibrationSet, scoreCalibration, writeCalibrationSet, type Scored } from '../support/calibration-set';
import { MEASURED, wilsonInterval } from '../../src/worker/ai/heuristic-calibration';
import { HEURISTIC_CONFIDENCE_CAP } from '../../src/shared/ai/schema';

let dir: string;
let results: Scored[];
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-calibration-'));
  results = await analyseCalibrationSet(await writeCalibrationSet(dir));
}, 300_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the heuristic on the calibration set', () => {
  it('has the corpus camera photos, their copies and the graphics', () => {
    const kinds = new Map<string, number>();
    for (const r of results) kinds.set(r.image.kind, (kinds.get(r.image.kind) ?? 0) + 1);
    expect(kinds.get('camera')).toBeGreaterThanOrEqual(30);
    expect(kinds.get('greyscale')).toBe(kinds.get('camera'));
    expect(kinds.get('sepia')).toBe(kinds.get('camera'));
    expect(kinds.get('graphic')).toBe(4);
  });

  it('clues and overall intervals hold the true year as often as they state: each stated confidence lies in the 95 % interval of its measured hit rate', () => {
    const report = scoreCalibration(results);
    expect(report.byStatedConfidence.length).toBeGreaterThan(0);
    for (const b of [...report.byStatedConfidence, ...report.overallByStatedConfidence]) {
      const [low, high] = wilsonInterval(Math.round(b.hitRate * b.clues), b.clues);
      // 0.01: stated confidences are rounded down to whole percents; none states above the cap.
      expect(b.stated, `stated ${b.stated}: ${b.clues} held the truth at ${b.hitRate}`).toBeGreaterThanOrEqual(
        Math.min(low, HEURISTIC_CONFIDENCE_CAP) - 0.01,
      );
      expect(b.stated, `stated ${b.stated}: ${b.clues} held the truth at ${b.hitRate}`).toBeLessThanOrEqual(high);
    }
    // Over the whole set the overall intervals hold the truth at least as often as they state on average.
    expect(report.hitRate).toBeGreaterThanOrEqual(report.meanConfidence);
  });

  it('the calibration table holds what the set measures for each family of clue', () => {
    const measured = Object.fromEntries(
      scoreCalibration(results).byFamily.map((f) => [f.family, { clues: f.clues, hits: f.hits }]),
    );
    expect(measured).toEqual(MEASURED);
  });

  it('a colour photograph is never given an interval that ends before its year', () => {
    for (const r of results.filter((x) => x.image.kind === 'camera')) {
      for (const c of r.analysis.clues) {
        if (c.latestYear !== null)
          expect(c.latestYear, `${path.basename(r.image.file)}: ${c.observation}`).toBeGreaterThanOrEqual(r.image.year!);
      }
    }
  });

  it('drawings, diagrams and flat graphics get no clue', () => {
    const graphics = results.filter((r) => r.image.kind === 'graphic');
    for (const r of graphics) {
      expect(r.analysis.clues, path.basename(r.image.file)).toEqual([]);
      expect(r.analysis.earliestYear).toBeNull();
      expect(r.analysis.summary).toMatch(/drawing, diagram, flat graphic or screenshot/);
    }
  });
});
