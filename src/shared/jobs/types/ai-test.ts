/**
 * `ai_test`: Settings' "Test connection": one real request to a visual-analysis backend — the
 * same request an analysis makes, with a small generated picture — made by a worker (main never
 * talks to a backend), reporting what came back. Not retried: a test says what happened now.
 */
import { z } from 'zod';
import { defineJobType } from '../define';
import { aiBackendConfigSchema } from '../../ai/schema';
import { AI_SETTINGS_REMEDY, MINUTE } from './common';

/** A test waits at most this long for an answer (a cold model can take a while to load). */
export const AI_TEST_TIMEOUT_MS = 90_000;

/** The settings to test, as typed in the form (they need not be saved first); never the API key. */
export const aiTestPayload = z
  .object({
    backend: z.enum(['ollama', 'openai-compatible']),
    baseUrl: z.string().max(500),
    model: z.string().max(200),
  })
  .strict();

export const aiTestJobType = defineJobType({
  type: 'ai_test',
  description: 'Test the connection to a visual-analysis backend with one real request.',
  payload: aiTestPayload,
  // The API key travels to the worker in memory only, as for an analysis.
  input: z.object({ backend: aiBackendConfigSchema, timeoutMs: z.number().int().positive() }),
  output: z.object({
    backend: z.string(),
    model: z.string().nullable(),
    elapsedMs: z.number().nonnegative(),
    earliestYear: z.number().int().nullable(),
    latestYear: z.number().int().nullable(),
    summary: z.string(),
  }),
  // One test at a time: pressing again while one runs shows that one.
  subject: () => 'settings:ai',
  policy: { maxRetries: 0, timeoutMs: 2 * MINUTE, handOff: 1, prefetch: 0 },
  limits: { requestTimeoutMs: AI_TEST_TIMEOUT_MS },
  ui: { label: 'AI connection test', permanentRemedy: AI_SETTINGS_REMEDY },
});
export type AiTestJobType = typeof aiTestJobType;
