/**
 * How well the heuristic's intervals hold the calibration set's true dates (calibration-set.ts):
 * overall, by stated confidence, by family of clue (each kind of claim it makes), and by kind of
 * image (camera photographs, historical prints, each rendered copy). An interval holds a true date
 * only when it holds the whole documented span; otherwise it misses by the years the span sticks
 * out of it.
 */
import { HEURISTIC_CONFIDENCE_CAP, type AiClue } from '../../src/shared/ai/schema';
import { OLD_BEFORE, statedConfidence, type ClueFamily, type Era } from '../../src/worker/ai/heuristic-calibration';
import type { CalibrationImage, Scored, TrueDate } from './calibration-set';

/** Clues or analyses, grouped by what they state: how many, the share that held the true date, and by how much the rest missed. */
export interface Coverage {
  stated: number;
  clues: number;
  hitRate: number;
  /** Mean years from the true date to the interval (0 inside it). */
  meanErrorYears: number;
}

/** Clues of one family on one era's photographs: how many, how many held the true date, and the mean miss. */
export interface EraCoverage {
  clues: number;
  hits: number;
  hitRate: number;
  meanErrorYears: number;
}

/** One kind of claim (a family of clue): the interval it states, how often it held the truth on each era's photographs, and the confidence it states for that. */
export interface FamilyCoverage {
  family: ClueFamily;
  earliestYear: number | null;
  latestYear: number | null;
  byEra: Partial<Record<Era, EraCoverage>>;
  stated: number;
}

/** Old (before 1950) or modern, by the whole true date. */
export const eraOf = (truth: TrueDate): Era => (truth.latest < OLD_BEFORE ? 'old' : 'modern');

/** The overall intervals on one kind of image. */
export interface KindCoverage {
  kind: CalibrationImage['kind'];
  images: number;
  dated: number;
  hitRate: number;
  meanErrorYears: number;
}

/** Years from the true date to the interval (0 when the interval holds all of it); open ends reach any year. */
export function missYears(truth: TrueDate, earliest: number | null, latest: number | null): number {
  return Math.max(0, earliest !== null ? earliest - truth.earliest : 0, latest !== null ? truth.latest - latest : 0);
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const hitShare = (misses: number[]) => (misses.length ? misses.filter((m) => m === 0).length / misses.length : 1);

function coverageBy<T>(items: T[], stated: (t: T) => number, missOf: (t: T) => number): Coverage[] {
  const groups = new Map<number, number[]>();
  for (const t of items) {
    const key = Math.round(stated(t) * 100) / 100;
    groups.set(key, [...(groups.get(key) ?? []), missOf(t)]);
  }
  return [...groups]
    .sort((a, b) => a[0] - b[0])
    .map(([s, misses]) => ({ stated: s, clues: misses.length, hitRate: hitShare(misses), meanErrorYears: mean(misses) }));
}

const hasInterval = (c: Pick<AiClue, 'earliestYear' | 'latestYear'>) => c.earliestYear !== null || c.latestYear !== null;

export interface CalibrationReport {
  /** Photographs (camera, historical, rendered copies) the analysis gave an interval. */
  dated: number;
  photos: number;
  /** Share of those intervals that hold the true date, and the mean years by which they miss it (0 inside). */
  hitRate: number;
  meanErrorYears: number;
  /** Mean stated confidence of those intervals. */
  meanConfidence: number;
  /** Each clue given, by its stated confidence: how many, what share held the true date, the mean miss. */
  byStatedConfidence: Coverage[];
  /** Each overall interval (the evidence the analysis becomes), by its stated confidence. */
  overallByStatedConfidence: Coverage[];
  /** Each family of clue as the statistics suggest it, given or dropped (heuristic-calibration.ts's MEASURED), with what it states (0: not given). */
  byFamily: FamilyCoverage[];
  /** The overall intervals on each kind of image. */
  byKind: KindCoverage[];
  /** Graphics the analysis still gave a clue (should be 0). */
  graphicsWithClues: number;
  graphics: number;
}

export function scoreCalibration(results: Scored[]): CalibrationReport {
  const photos = results.filter((r) => r.image.truth !== null);
  const overall = photos
    .filter((r) => hasInterval(r.analysis))
    .map((r) => ({ r, miss: missYears(r.image.truth!, r.analysis.earliestYear, r.analysis.latestYear) }));
  const given = photos.flatMap((r) =>
    r.analysis.clues
      .filter(hasInterval)
      .map((clue) => ({ clue, miss: missYears(r.image.truth!, clue.earliestYear, clue.latestYear) })),
  );
  const families = new Map<ClueFamily, { clue: AiClue; misses: Partial<Record<Era, number[]>> }>();
  for (const r of photos) {
    const era = eraOf(r.image.truth!);
    for (const { family, clue } of r.candidates.filter((c) => hasInterval(c.clue))) {
      const f = families.get(family) ?? { clue, misses: {} };
      (f.misses[era] ??= []).push(missYears(r.image.truth!, clue.earliestYear, clue.latestYear));
      families.set(family, f);
    }
  }
  const kinds = new Map<CalibrationImage['kind'], { images: number; misses: number[] }>();
  for (const r of photos) {
    const k = kinds.get(r.image.kind) ?? { images: 0, misses: [] };
    k.images++;
    kinds.set(r.image.kind, k);
  }
  for (const { r, miss } of overall) kinds.get(r.image.kind)!.misses.push(miss);
  const graphics = results.filter((r) => r.image.truth === null);
  return {
    dated: overall.length,
    photos: photos.length,
    hitRate: hitShare(overall.map((o) => o.miss)),
    meanErrorYears: mean(overall.map((o) => o.miss)),
    meanConfidence: mean(overall.map((o) => o.r.analysis.confidence)),
    byStatedConfidence: coverageBy(
      given,
      (g) => g.clue.confidence,
      (g) => g.miss,
    ),
    overallByStatedConfidence: coverageBy(
      overall,
      (o) => o.r.analysis.confidence,
      (o) => o.miss,
    ),
    byFamily: [...families]
      .sort((a, b) => a[0].localeCompare(b[0]))
      .map(([family, { clue, misses }]) => ({
        family,
        earliestYear: clue.earliestYear,
        latestYear: clue.latestYear,
        byEra: Object.fromEntries(
          Object.entries(misses).map(([era, m]) => [
            era,
            { clues: m.length, hits: m.filter((x) => x === 0).length, hitRate: hitShare(m), meanErrorYears: mean(m) },
          ]),
        ),
        stated: Math.min(HEURISTIC_CONFIDENCE_CAP, statedConfidence(family)),
      })),
    byKind: [...kinds].map(([kind, k]) => ({
      kind,
      images: k.images,
      dated: k.misses.length,
      hitRate: hitShare(k.misses),
      meanErrorYears: mean(k.misses),
    })),
    graphicsWithClues: graphics.filter((r) => r.analysis.clues.length > 0 || r.analysis.earliestYear !== null).length,
    graphics: graphics.length,
  };
}
