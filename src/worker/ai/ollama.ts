/** Ollama's native chat API: POST {baseUrl}/api/chat with base64 images and a JSON-schema `format`. */
import { PermanentJobError } from '../../shared/jobs/errors';
import { excerpt, postJson } from './http';
import { prepareAiJpeg } from './image';
import { REPLY_JSON_SCHEMA, buildPrompt } from './prompt';
import { parseModelReply } from './reply';
import { DEFAULT_AI_TIMEOUT_MS, type AiAnalysis, type AnalyzeOptions } from '../../shared/ai/schema';

export interface OllamaConfig {
  baseUrl: string;
  model: string;
}

export function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

export function buildOllamaRequest(model: string, jpegBase64: string) {
  return {
    model,
    messages: [{ role: 'user', content: buildPrompt(), images: [jpegBase64] }],
    stream: false,
    format: REPLY_JSON_SCHEMA,
    options: { temperature: 0 },
  };
}

export async function analyzeWithOllama(imagePath: string, cfg: OllamaConfig, opts: AnalyzeOptions = {}): Promise<AiAnalysis> {
  const jpeg = await prepareAiJpeg(imagePath);
  const envelope = await postJson(joinUrl(cfg.baseUrl, 'api/chat'), buildOllamaRequest(cfg.model, jpeg.base64), {
    signal: opts.signal,
    timeoutMs: opts.timeoutMs ?? DEFAULT_AI_TIMEOUT_MS,
    model: cfg.model,
  });
  const e = envelope as { message?: { content?: unknown }; error?: unknown } | null;
  if (!e || typeof e !== 'object' || !e.message) {
    throw new PermanentJobError(`The Ollama reply has no message: ${excerpt(JSON.stringify(envelope))}`);
  }
  return parseModelReply(e.message.content, 'ollama', cfg.model);
}
