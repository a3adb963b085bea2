// Hard bounds intersect: the window they leave runs from the highest "not
// before" to the lowest "not after". When that window is empty, every pair of
// a lower bound above an upper bound is a minimal conflict.
import type { EndPrecisions, EstimateConflict, EvidenceInput } from './types';
import { finest } from './precision';
import { describeBound } from './evidence-phrases';

export interface BoundWindow {
  /** null: open at that end. Meaningless when `conflicts` is not empty. */
  earliest: number | null;
  latest: number | null;
  /** Bounds whose end equals the window's end (all of them on a tie), by id. */
  earliestSetBy: number[];
  latestSetBy: number[];
  conflicts: EstimateConflict[];
  /** The finest precision among the bounds that set each end. */
  precision: EndPrecisions;
}

/** `bounds` must be sorted by id; the result's id lists follow that order. */
export function intersectBounds(bounds: EvidenceInput[]): BoundWindow {
  const lowers = bounds.filter((b) => b.earliest !== null);
  const uppers = bounds.filter((b) => b.latest !== null);
  const earliest = lowers.length ? Math.max(...lowers.map((b) => b.earliest!)) : null;
  const latest = uppers.length ? Math.min(...uppers.map((b) => b.latest!)) : null;
  const settingLower = lowers.filter((b) => b.earliest === earliest);
  const settingUpper = uppers.filter((b) => b.latest === latest);
  return {
    earliest,
    latest,
    earliestSetBy: settingLower.map((b) => b.id),
    latestSetBy: settingUpper.map((b) => b.id),
    conflicts: findConflicts(lowers, uppers),
    precision: {
      earliest: finest(settingLower.map((b) => b.precision?.earliest)),
      latest: finest(settingUpper.map((b) => b.precision?.latest)),
    },
  };
}

// Each conflicting pair is minimal: dropping either member removes that
// contradiction. Pairs are listed lower bound first, ordered by ids.
function findConflicts(lowers: EvidenceInput[], uppers: EvidenceInput[]): EstimateConflict[] {
  const conflicts: EstimateConflict[] = [];
  for (const lower of lowers) {
    for (const upper of uppers) {
      if (lower.earliest! <= upper.latest!) continue;
      if (lower.id === upper.id) {
        conflicts.push({
          evidenceIds: [lower.id],
          reason: `${describeBound(lower)} (#${lower.id}) contradicts itself: it starts after it ends`,
        });
      } else {
        conflicts.push({
          evidenceIds: [lower.id, upper.id],
          reason: `${describeBound(lower)} (#${lower.id}) contradicts ${describeBound(upper)} (#${upper.id})`,
        });
      }
    }
  }
  return conflicts;
}
