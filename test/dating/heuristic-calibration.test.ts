/**
 * The offline heuristic earns its place, measured (issue 28 item 2), on the calibration set
 * (test/support/calibration-set.ts: camera photographs, historical prints of 1865–1940 with their
 * museum dates, rendered copies of both, graphics): its clues hold the true date as often as their
 * stated confidence says, for each stated confidence and for each kind of claim (no less and no
 * more, within the measurement's 95 % interval); a kind of claim that never earned a confidence is
 * not made; colour never dates a photograph earlier; and drawings, diagrams and flat graphics get
 * no clue.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseCalibrationSet, writeCalibrationSet, type Scored } from '../support/calibration-set';
import { scoreCalibration, type CalibrationReport } from '../support/calibration-score';
import { HISTORICAL_PRINTS } from '../support/historical-prints';
import { RENDERED_PROCESSES } from '../support/rendered-processes';
import { MEASURED, earnedConfidence, wilsonInterval } from '../../src/worker/ai/heuristic-calibration';
import { HEURISTIC_CONFIDENCE_CAP } from '../../src/shared/ai/schema';

let dir: string;
let results: Scored[];
let report: CalibrationReport;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-calibration-'));
  results = await analyseCalibrationSet(await writeCalibrationSet(dir));
  report = scoreCalibration(results);
}, 300_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A stated confidence agrees with `hits` of `n` when it lies in the hit rate's 95 % interval (0.01: rounded down to whole percents; none above the cap). */
function expectAgrees(stated: number, hits: number, n: number, what: string) {
  const [low] = wilsonInterval(hits, n);
  expect(stated, `${what}: stated ${stated}, ${hits}/${n} held the truth`).toBeGreaterThanOrEqual(
    Math.min(low, HEURISTIC_CONFIDENCE_CAP) - 0.01,
  );
  expectNotOverstated(stated, hits, n, what);
}

/** A stated confidence is never above what `hits` of `n` can support (the top of its 95 % interval). */
function expectNotOverstated(stated: number, hits: number, n: number, what: string) {
  expect(stated, `${what}: stated ${stated}, ${hits}/${n} held the truth`).toBeLessThanOrEqual(wilsonInterval(hits, n)[1]);
}

describe('the heuristic on the calibration set', () => {
  it('has the corpus camera photos, the historical prints, a copy of each in every rendered process, and the graphics', () => {
    const kinds = new Map<string, number>();
    for (const r of results) kinds.set(r.image.kind, (kinds.get(r.image.kind) ?? 0) + 1);
    expect(kinds.get('camera')).toBeGreaterThanOrEqual(30);
    expect(kinds.get('historical')).toBe(HISTORICAL_PRINTS.length);
    for (const process of RENDERED_PROCESSES)
      expect(kinds.get(process), process).toBe(kinds.get('camera')! + HISTORICAL_PRINTS.length);
    expect(kinds.get('graphic')).toBe(4);
    const old = results.filter((r) => r.image.truth && r.image.truth.latest < 1950);
    expect(old.length).toBe(HISTORICAL_PRINTS.length * (1 + RENDERED_PROCESSES.length));
  });

  it('clues and overall intervals hold the true date at least as often as they state: no stated confidence is above the 95 % interval of its measured hit rate', () => {
    // Never above; below only as far as the claims pooled at one number were each measured
    // (the next test holds every kind of claim to its own measurement, from below too).
    expect(report.byStatedConfidence.length).toBeGreaterThan(0);
    for (const b of [...report.byStatedConfidence, ...report.overallByStatedConfidence]) {
      expectNotOverstated(b.stated, Math.round(b.hitRate * b.clues), b.clues, `stated ${b.stated}`);
    }
    // Over the whole set the overall intervals hold the truth at least as often as they state on average.
    expect(report.hitRate).toBeGreaterThanOrEqual(report.meanConfidence);
  });

  it('each kind of claim states what it earned on the era where it did worst (old or modern photographs), and no clue at all when that is nothing', () => {
    for (const f of report.byFamily) {
      const eras = Object.entries(f.byEra);
      const earned = Math.min(...eras.map(([, e]) => earnedConfidence(e.hits, e.clues)));
      expect(f.stated, f.family).toBe(Math.min(HEURISTIC_CONFIDENCE_CAP, earned));
      for (const [era, e] of eras) expectNotOverstated(f.stated, e.hits, e.clues, `${f.family} on ${era} photographs`);
      const worst = eras.find(([, e]) => earnedConfidence(e.hits, e.clues) === earned)!;
      expectAgrees(f.stated, worst[1].hits, worst[1].clues, `${f.family} on ${worst[0]} photographs`);
    }
    // A family that earned nothing gives no clue; the others give theirs.
    const stated = new Map(report.byFamily.map((f) => [f.family, f.stated]));
    for (const r of results) {
      const earned = r.candidates.filter((c) => (stated.get(c.family) ?? 0) > 0).map((c) => c.clue.observation);
      expect(
        r.analysis.clues.map((c) => c.observation),
        path.basename(r.image.file),
      ).toEqual(earned);
    }
    // The claim of a square snapshot (1950–1990) never held on the set: it is not made.
    expect(report.byFamily.find((f) => f.family === 'format-square')?.stated).toBe(0);
  });

  it('the calibration table holds what the set measures for each family of clue and era', () => {
    const measured = Object.fromEntries(
      report.byFamily.map((f) => [
        f.family,
        Object.fromEntries(Object.entries(f.byEra).map(([era, e]) => [era, { clues: e.clues, hits: e.hits }])),
      ]),
    );
    expect(measured).toEqual(MEASURED);
  });

  it("on the historical prints and their copies, the intervals hold the museum's date at least as often as they state", () => {
    const old = scoreCalibration(results.filter((r) => r.image.truth && r.image.truth.latest < 1950));
    expect(old.dated).toBe(HISTORICAL_PRINTS.length * (1 + RENDERED_PROCESSES.length));
    for (const b of [...old.byStatedConfidence, ...old.overallByStatedConfidence]) {
      expectNotOverstated(b.stated, Math.round(b.hitRate * b.clues), b.clues, `old photographs, stated ${b.stated}`);
    }
    expect(old.hitRate).toBeGreaterThanOrEqual(old.meanConfidence);
    expect(report.byKind.find((k) => k.kind === 'historical')).toMatchObject({ images: 9, dated: 9 });
  });

  it('a colour photograph is never given an interval that ends before its year', () => {
    for (const r of results.filter((x) => x.image.kind === 'camera')) {
      for (const c of r.analysis.clues) {
        if (c.latestYear !== null && c.confidence > 0.1)
          expect(c.latestYear, `${path.basename(r.image.file)}: ${c.observation}`).toBeGreaterThanOrEqual(r.image.truth!.latest);
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
