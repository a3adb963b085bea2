/**
 * The offline heuristic earns its place, measured (issue 28 item 2), on the calibration set
 * (test/support/calibration-set.ts): its clues hold the true year at least as often as their
 * stated confidence says, colour never dates a photograph earlier, and drawings, diagrams and
 * flat graphics get no clue.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeHeuristically } from '../../src/worker/ai/heuristic';
import { scoreCalibration, writeCalibrationSet, type Scored } from '../support/calibration-set';

let dir: string;
let results: Scored[];
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-calibration-'));
  const set = await writeCalibrationSet(dir);
  results = [];
  for (const image of set) results.push({ image, analysis: await analyzeHeuristically(image.file) });
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

  it('clues at each stated confidence hold the true year at least that often', () => {
    const report = scoreCalibration(results);
    expect(report.byStatedConfidence.length).toBeGreaterThan(0);
    for (const b of report.byStatedConfidence) {
      // One standard error of slack for small groups.
      const slack = Math.sqrt((b.stated * (1 - b.stated)) / b.clues);
      expect(b.hitRate, `clues stated at ${b.stated}`).toBeGreaterThanOrEqual(b.stated - slack);
    }
    expect(report.hitRate).toBeGreaterThanOrEqual(report.meanConfidence);
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
