/** The worker's half of the `preview` job: see src/worker/imaging/pyramid.ts. */
import type { PreviewJobType } from '../../shared/jobs/types/preview';
import { buildPyramid } from '../imaging/pyramid';
import type { RunHandler } from './types';

export const previewHandler: RunHandler<PreviewJobType> = (input, ctx) =>
  buildPyramid(input, { signal: ctx.signal, progress: (f, m) => ctx.progress(f, m) });
