/**
 * Types and zod schemas for machine dating. Per the brief (§4) every result here is WEAK
 * evidence: an estimate with a confidence, never a bound.
 */
import { z } from 'zod';

/** The year of the earliest surviving photograph (Niépce); nothing can be older. */
export const MIN_PHOTO_YEAR = 1826;
/** Confidence reported by a vision model is capped: models are off by ~7 years on average. */
export const AI_CONFIDENCE_CAP = 0.5;
/**
 * The heuristic's clues and overall estimate never claim more than this. Below it they state what
 * the calibration set measured (src/worker/ai/heuristic-calibration.ts): wide intervals that
 * almost always hold the date, never certainty.
 */
export const HEURISTIC_CONFIDENCE_CAP = 0.95;

export const currentYear = (): number => new Date().getFullYear();

/** A plausible photograph year (checked against the clock at validation time). */
export const photoYearSchema = z
  .number()
  .int()
  .min(MIN_PHOTO_YEAR)
  .refine((y) => y <= currentYear(), { message: 'year is in the future' });

function ordered(v: { earliestYear: number | null; latestYear: number | null }): boolean {
  return v.earliestYear === null || v.latestYear === null || v.earliestYear <= v.latestYear;
}
const orderMessage = { message: 'earliestYear is after latestYear', path: ['earliestYear'] };

const httpUrl = z.url({ protocol: /^https?$/ });

/** The visual-analysis backends a library can be set to (Settings → Visual analysis). */
export const aiBackendKinds = ['heuristic', 'ollama', 'openai-compatible'] as const;

export const aiBackendConfigSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('heuristic') }),
  z.object({ kind: z.literal('ollama'), baseUrl: httpUrl, model: z.string().min(1) }),
  z.object({
    kind: z.literal('openai-compatible'),
    baseUrl: httpUrl,
    model: z.string().min(1),
    apiKey: z.string().min(1).nullable(),
  }),
]);
export type AiBackendConfig = z.infer<typeof aiBackendConfigSchema>;
export type AiBackendKind = AiBackendConfig['kind'];

export const aiClueSchema = z
  .object({
    category: z.string().min(1),
    observation: z.string().min(1),
    earliestYear: photoYearSchema.nullable(),
    latestYear: photoYearSchema.nullable(),
    confidence: z.number().min(0).max(1),
  })
  .refine(ordered, orderMessage);
export type AiClue = z.infer<typeof aiClueSchema>;

export const aiAnalysisSchema = z
  .object({
    backend: z.enum(aiBackendKinds),
    model: z.string().nullable(),
    earliestYear: photoYearSchema.nullable(),
    latestYear: photoYearSchema.nullable(),
    confidence: z.number().min(0).max(1),
    summary: z.string(),
    clues: z.array(aiClueSchema),
  })
  .refine(ordered, orderMessage);
export type AiAnalysis = z.infer<typeof aiAnalysisSchema>;

/** What a vision model must reply with (see `REPLY_JSON_SCHEMA` in prompt.ts for the wire form). */
export const modelReplySchema = z
  .object({
    earliestYear: photoYearSchema.nullable(),
    latestYear: photoYearSchema.nullable(),
    confidence: z.number().min(0).max(1),
    summary: z.string().max(4000).optional(),
    clues: z
      .array(
        z
          .object({
            category: z.string().trim().min(1).max(100),
            observation: z.string().trim().min(1).max(2000),
            earliestYear: photoYearSchema.nullable(),
            latestYear: photoYearSchema.nullable(),
          })
          .refine(ordered, orderMessage),
      )
      .max(50),
  })
  .refine(ordered, orderMessage);
export type ModelReply = z.infer<typeof modelReplySchema>;

export interface AnalyzeOptions {
  signal?: AbortSignal;
  /** HTTP backends only; default `DEFAULT_AI_TIMEOUT_MS`. */
  timeoutMs?: number;
}

/** How long one request to an AI backend may take (the ai_analysis job hands it to the worker). */
export const DEFAULT_AI_TIMEOUT_MS = 120_000;
