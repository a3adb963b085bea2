/**
 * What the visual-analysis settings need before they can be saved or tested: a server's web
 * address and a model for Ollama and OpenAI-compatible backends. One check for the Settings form
 * (as the archivist types) and for main (which never saves settings a job could not use).
 */
import type { AiBackendKind } from './schema';
import { CallFailure } from '../result';

export interface AiSettingsDraft {
  aiBackend: AiBackendKind;
  aiBaseUrl: string;
  aiModel: string;
}

export interface AiSettingsProblem {
  path: 'aiBaseUrl' | 'aiModel';
  message: string;
}

/** What each backend's fields look like, for placeholders and messages. */
export const AI_BACKEND_EXAMPLES: Record<Exclude<AiBackendKind, 'heuristic'>, { url: string; model: string }> = {
  ollama: { url: 'http://127.0.0.1:11434', model: 'llava:13b' },
  'openai-compatible': { url: 'http://127.0.0.1:1234/v1', model: 'gpt-4o-mini' },
};

export function aiSettingsProblems(s: AiSettingsDraft): AiSettingsProblem[] {
  if (s.aiBackend === 'heuristic') return [];
  const example = AI_BACKEND_EXAMPLES[s.aiBackend];
  const problems: AiSettingsProblem[] = [];
  const url = s.aiBaseUrl.trim();
  if (!url) problems.push({ path: 'aiBaseUrl', message: `Enter the server’s address, e.g. ${example.url}` });
  else if (!isWebAddress(url))
    problems.push({ path: 'aiBaseUrl', message: `Not a web address: it starts with http:// or https://, e.g. ${example.url}` });
  if (!s.aiModel.trim()) problems.push({ path: 'aiModel', message: `Enter the model’s name, e.g. ${example.model}` });
  return problems;
}

/** Refuses settings with problems as invalid input, each problem on its field. */
export function assertUsableAiSettings(s: AiSettingsDraft): void {
  const problems = aiSettingsProblems(s);
  if (!problems.length) return;
  throw new CallFailure(
    'invalid_input',
    problems.map((p) => p.message).join('; '),
    problems.map((p) => ({ path: [p.path], message: p.message })),
  );
}

function isWebAddress(text: string): boolean {
  try {
    const u = new URL(text);
    return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname;
  } catch {
    return false;
  }
}
