/** The worker's half of the `ai_analysis` job: one analysis by the configured backend. */
import { analyzeImage, type AiAnalysis, type AiBackendConfig } from '../ai';
import type { RunHandler } from './types';

export const aiHandler: RunHandler = (
  input: { path: string; backend: AiBackendConfig; timeoutMs: number },
  ctx,
): Promise<AiAnalysis> => analyzeImage(input.path, input.backend, { signal: ctx.signal, timeoutMs: input.timeoutMs });
