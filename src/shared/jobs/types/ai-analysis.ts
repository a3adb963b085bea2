/** `ai_analysis`: a weak, explained visual estimate by the configured backend. */
import { z } from 'zod';
import { defineJobType } from '../define';
import { aiAnalysisSchema, aiBackendConfigSchema, DEFAULT_AI_TIMEOUT_MS } from '../../ai/schema';
import { AI_SETTINGS_REMEDY, photoIdPayload, photoSubject, MINUTE } from './common';

export const aiAnalysisJobType = defineJobType({
  type: 'ai_analysis',
  description: 'Visual analysis by the configured backend (heuristic, Ollama or OpenAI-compatible).',
  payload: photoIdPayload,
  // The API key travels to the worker in memory only; it is never stored with the job.
  input: z.object({ path: z.string(), backend: aiBackendConfigSchema, timeoutMs: z.number().int().positive() }),
  output: aiAnalysisSchema,
  subject: photoSubject,
  policy: { maxRetries: 4, timeoutMs: 5 * MINUTE, handOff: 1, prefetch: 2 },
  limits: { requestTimeoutMs: DEFAULT_AI_TIMEOUT_MS },
  ui: { label: 'AI analysis', rerunForPhotos: true, permanentRemedy: AI_SETTINGS_REMEDY },
});
export type AiAnalysisJobType = typeof aiAnalysisJobType;
