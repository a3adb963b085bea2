/**
 * Main's half of `ai_test` (Settings → Test connection): `load` turns the settings being tested
 * into the backend a worker calls, with the stored API key in memory only; `apply` says, in one
 * line, who answered, how fast and what.
 */
import { PermanentJobError } from '../../shared/jobs/errors';
import { aiSettingsProblems } from '../../shared/ai/settings-check';
import { AI_TEST_TIMEOUT_MS, type AiTestJobType } from '../../shared/jobs/types/ai-test';
import type { MainHalf } from '../jobs/registry';

export interface AiTestJobDeps {
  apiKey(): string | null;
}

/** The address without credentials, query or fragment: safe to show. */
function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname.replace(/\/$/, '')}`;
  } catch {
    return url;
  }
}

const excerpt = (text: string, max = 160) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

export function aiTestJob(deps: AiTestJobDeps): MainHalf<AiTestJobType> {
  return {
    load({ payload }) {
      const problems = aiSettingsProblems({ aiBackend: payload.backend, aiBaseUrl: payload.baseUrl, aiModel: payload.model });
      if (problems.length) throw new PermanentJobError(problems.map((p) => p.message).join('; '));
      const baseUrl = payload.baseUrl.trim();
      const model = payload.model.trim();
      const backend =
        payload.backend === 'ollama'
          ? { kind: 'ollama' as const, baseUrl, model }
          : { kind: 'openai-compatible' as const, baseUrl, model, apiKey: deps.apiKey() };
      return { backend, timeoutMs: AI_TEST_TIMEOUT_MS };
    },
    apply(out, job) {
      const seconds = (out.elapsedMs / 1000).toFixed(1);
      const years =
        out.earliestYear != null || out.latestYear != null
          ? `${out.earliestYear ?? '…'}–${out.latestYear ?? '…'}`
          : 'no dating clues';
      return `${out.model ?? job.payload.model} at ${shownUrl(job.payload.baseUrl)} answered in ${seconds} s with a valid dating reply (${years}): “${excerpt(out.summary)}”`;
    },
  };
}
