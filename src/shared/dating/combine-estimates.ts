// Soft estimates, weighed by confidence inside the window the hard bounds leave.
//
// Rule: clip every estimate to the window (dropping those wholly outside), then
// take each end of the result as the confidence-weighted median of the
// estimates' ends: the lower end is the smallest lower end that at least half
// of the total weight starts at or before; the upper end is the largest upper
// end that at least half of the weight ends at or after.
//
// Why: a weighted median cannot be dragged far by one weak outlier (an AI
// guess at 0.2 cannot widen or narrow a caption-based estimate at 0.9), a
// single estimate comes back unchanged, the result never leaves the window
// (every clipped end lies inside it), and the lower end can never pass the
// upper one: more than half the weight starts at or after the lower end and
// more than half ends at or before the upper end, so one estimate would have
// to start after it ends. On an exact tie the wider choice is taken, which
// keeps disagreeing estimates visible as a wider range.
//
// Each estimate weighs its confidence times how much of the photographic era it rules out. An
// evidence confidence is the chance that the interval holds the true date (issue 28), so a wide
// interval can state a high one and say little: "1850–2026, 95 %" must not outweigh a caption's
// "1947, 90 %". An estimate as wide as the era weighs nothing; one of a few years keeps nearly
// all its confidence, so estimates of similar width weigh as their confidences say.
import type { EvidenceInput } from './types';
import { toEpochDay, yearEnd, yearStart } from './daynum';
import { FIRST_PHOTOGRAPH_YEAR } from './photo-era';

/** Confidence assumed for an estimate that does not state one. */
export const DEFAULT_ESTIMATE_CONFIDENCE = 0.5;

export interface Interval {
  /** null: open (unbounded) at that end. */
  earliest: number | null;
  latest: number | null;
}

export interface ClippedEstimate extends Interval {
  id: number;
  confidence: number;
}

export interface Combination extends Interval {
  earliestSetBy: number[];
  latestSetBy: number[];
  /** 0..1, rounded to two decimals. */
  confidence: number;
}

const lowerValue = (n: number | null) => n ?? -Infinity;
const upperValue = (n: number | null) => n ?? Infinity;

/** The part of an estimate inside the window, or null when none of it is. */
export function clipToWindow(estimate: Interval, window: Interval): Interval | null {
  const earliest = Math.max(lowerValue(estimate.earliest), lowerValue(window.earliest));
  const latest = Math.min(upperValue(estimate.latest), upperValue(window.latest));
  if (earliest > latest) return null;
  return {
    earliest: Number.isFinite(earliest) ? earliest : null,
    latest: Number.isFinite(latest) ? latest : null,
  };
}

export function confidenceOf(item: Pick<EvidenceInput, 'confidence'>): number {
  const confidence = item.confidence ?? DEFAULT_ESTIMATE_CONFIDENCE;
  return Math.min(1, Math.max(0, confidence));
}

/**
 * First value, in ascending order, at which the cumulative weight reaches half
 * of the total. `values` are [value, weight] pairs, already in ascending order.
 */
function weightedMedian(values: [number, number][]): number {
  const total = values.reduce((sum, [, weight]) => sum + weight, 0);
  let cumulative = 0;
  for (const [value, weight] of values) {
    cumulative += weight;
    if (cumulative * 2 >= total) return value;
  }
  return values[values.length - 1][0];
}

/**
 * Combines estimates that already lie inside the window. `estimates` must be
 * non-empty and sorted by id, so that the arithmetic runs in the same order
 * whatever order the evidence arrived in.
 */
export function combineEstimates(estimates: ClippedEstimate[]): Combination {
  if (estimates.length === 0) throw new Error('combineEstimates needs at least one estimate');
  // Weights are confidence × informativeness; if all are zero, the confidences alone, and if those
  // are zero too, every estimate counts equally.
  const weights = new Map(estimates.map((e) => [e.id, e.confidence * informativeness(e)]));
  const fallback = estimates.every((e) => weights.get(e.id) === 0);
  const allZero = estimates.every((e) => e.confidence === 0);
  const weightOf = (e: ClippedEstimate) => (allZero ? 1 : fallback ? e.confidence : weights.get(e.id)!);

  const byLower = [...estimates].sort((a, b) => lowerValue(a.earliest) - lowerValue(b.earliest) || a.id - b.id);
  const lower = weightedMedian(byLower.map((e) => [lowerValue(e.earliest), weightOf(e)]));
  // Upper ends in descending order, so that the median leans to the later (wider) end on ties.
  const byUpper = [...estimates].sort((a, b) => upperValue(b.latest) - upperValue(a.latest) || a.id - b.id);
  const upper = weightedMedian(byUpper.map((e) => [upperValue(e.latest), weightOf(e)]));

  const result: Interval = {
    earliest: Number.isFinite(lower) ? lower : null,
    latest: Number.isFinite(upper) ? upper : null,
  };
  return {
    ...result,
    earliestSetBy: estimates.filter((e) => lowerValue(e.earliest) === lower).map((e) => e.id),
    latestSetBy: estimates.filter((e) => upperValue(e.latest) === upper).map((e) => e.id),
    confidence: combinedConfidence(estimates, result),
  };
}

/** The span the weighing measures against: two hundred years from the first photograph. */
const ERA_FIRST_DAY = toEpochDay(yearStart(FIRST_PHOTOGRAPH_YEAR));
const ERA_LAST_DAY = toEpochDay(yearEnd(FIRST_PHOTOGRAPH_YEAR + 199));

/** 1 for a single day, 0 for the whole era or more; an open end reaches the era's edge. */
export function informativeness(interval: Interval): number {
  const first = interval.earliest === null ? ERA_FIRST_DAY : toEpochDay(interval.earliest);
  const last = interval.latest === null ? ERA_LAST_DAY : toEpochDay(interval.latest);
  const eraDays = ERA_LAST_DAY - ERA_FIRST_DAY + 1;
  return Math.max(0, 1 - (last - first) / (eraDays - 1));
}

function lengthInDays(interval: Interval): number {
  if (interval.earliest === null || interval.latest === null) return Infinity;
  return toEpochDay(interval.latest) - toEpochDay(interval.earliest) + 1;
}

/** Share of an estimate's days that fall inside the result (0..1). */
function shareInside(estimate: Interval, result: Interval): number {
  const overlap = clipToWindow(estimate, result);
  if (!overlap) return 0;
  const total = lengthInDays(estimate);
  const inside = lengthInDays(overlap);
  if (total === Infinity) return inside === Infinity ? 1 : 0;
  return inside / total;
}

/**
 * How likely the date lies in the result, if each estimate is read as "with
 * probability c the date is somewhere (uniformly) in my interval" and the
 * estimates are independent: one minus the chance that none of them puts the
 * date inside the result. Estimates wholly inside contribute their full
 * confidence; one estimate alone gives back its own confidence.
 */
function combinedConfidence(estimates: ClippedEstimate[], result: Interval): number {
  const allMiss = estimates.reduce((product, e) => product * (1 - e.confidence * shareInside(e, result)), 1);
  return Math.round((1 - allMiss) * 100) / 100;
}
