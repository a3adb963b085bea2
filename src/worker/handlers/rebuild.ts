/**
 * The worker's half of `constraint_rebuild`: the estimate engine over one chunk of photos, each
 * estimate sent as the JSON main stores (see shared/jobs/outputs/rebuild.ts).
 */
import { estimate } from '../../shared/dating';
import type { RebuildOutput } from '../../shared/jobs/outputs/rebuild';
import type { ConstraintRebuildJobType } from '../../shared/jobs/types/constraint-rebuild';
import type { RunHandler } from './types';

export const rebuildHandler: RunHandler<ConstraintRebuildJobType> = async (input, ctx) => {
  const estimates: RebuildOutput['estimates'] = [];
  for (const p of input.photos) {
    if (ctx.signal.aborted) throw ctx.signal.reason;
    const e = estimate(p.evidence);
    estimates.push({
      photoId: p.id,
      version: p.version,
      status: e.status,
      earliest: e.earliest,
      latest: e.latest,
      json: JSON.stringify(e),
    });
  }
  return { estimates };
};
