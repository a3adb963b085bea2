/** The worker's half of the `ai_analysis` job: one analysis by the configured backend. */
import type { AiAnalysisJobType } from '../../shared/jobs/types/ai-analysis';
import { analyzeImage } from '../ai';
import type { RunHandler } from './types';

export const aiHandler: RunHandler<AiAnalysisJobType> = (input, ctx) =>
  analyzeImage(input.path, input.backend, { signal: ctx.signal, timeoutMs: input.timeoutMs });
