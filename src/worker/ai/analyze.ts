import { PermanentJobError } from '../../shared/jobs/errors';
import { analyzeHeuristically } from './heuristic';
import { analyzeWithOllama } from './ollama';
import { analyzeWithOpenAi } from './openai';
import { aiBackendConfigSchema, type AiAnalysis, type AiBackendConfig, type AnalyzeOptions } from '../../shared/ai/schema';

/**
 * Dates a photograph by machine: WEAK evidence (BRIEF §4). Throws PermanentJobError for bad
 * configuration, undecodable images and unusable replies; RetryLaterError for HTTP 429; a plain
 * Error (retry with backoff) for timeouts, unreachable backends and 5xx; an AbortError when
 * `signal` fires.
 */
export async function analyzeImage(imagePath: string, backend: AiBackendConfig, opts: AnalyzeOptions = {}): Promise<AiAnalysis> {
  const parsed = aiBackendConfigSchema.safeParse(backend);
  if (!parsed.success) {
    // Paths and messages only: never echo values (one of them may be the API key).
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new PermanentJobError(`Invalid AI backend configuration: ${issues}`);
  }
  const cfg = parsed.data;
  switch (cfg.kind) {
    case 'heuristic':
      return analyzeHeuristically(imagePath, opts);
    case 'ollama':
      return analyzeWithOllama(imagePath, cfg, opts);
    case 'openai-compatible':
      return analyzeWithOpenAi(imagePath, cfg, opts);
  }
}
