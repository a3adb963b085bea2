/**
 * OpenAI-compatible chat completions (OpenAI, LM Studio, llama.cpp server, vLLM…):
 * POST {baseUrl}/chat/completions with an image_url data URL and a json_schema response_format.
 */
import { PermanentJobError } from '../../shared/jobs/errors';
import { excerpt, postJson, redact } from './http';
import { prepareAiJpeg } from './image';
import { joinUrl } from './ollama';
import { REPLY_JSON_SCHEMA, REPLY_SCHEMA_NAME, buildPrompt } from './prompt';
import { parseModelReply } from './reply';
import { DEFAULT_AI_TIMEOUT_MS, type AiAnalysis, type AnalyzeOptions } from '../../shared/ai/schema';

export interface OpenAiConfig {
  baseUrl: string;
  model: string;
  apiKey: string | null;
}

export function buildOpenAiRequest(model: string, jpegBase64: string) {
  return {
    model,
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: buildPrompt() },
          { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${jpegBase64}` } },
        ],
      },
    ],
    temperature: 0,
    response_format: {
      type: 'json_schema',
      json_schema: { name: REPLY_SCHEMA_NAME, strict: true, schema: REPLY_JSON_SCHEMA },
    },
  };
}

export async function analyzeWithOpenAi(imagePath: string, cfg: OpenAiConfig, opts: AnalyzeOptions = {}): Promise<AiAnalysis> {
  const secrets = [cfg.apiKey];
  const jpeg = await prepareAiJpeg(imagePath);
  const headers: Record<string, string> = {};
  if (cfg.apiKey) headers.authorization = `Bearer ${cfg.apiKey}`;
  const envelope = await postJson(joinUrl(cfg.baseUrl, 'chat/completions'), buildOpenAiRequest(cfg.model, jpeg.base64), {
    headers,
    signal: opts.signal,
    timeoutMs: opts.timeoutMs ?? DEFAULT_AI_TIMEOUT_MS,
    secrets,
    model: cfg.model,
  });
  const message = (envelope as { choices?: { message?: { content?: unknown; refusal?: unknown } }[] } | null)?.choices?.[0]
    ?.message;
  if (!message) {
    throw new PermanentJobError(
      `The AI backend reply has no choices[0].message: ${excerpt(redact(JSON.stringify(envelope), secrets))}`,
    );
  }
  if (typeof message.refusal === 'string' && message.refusal) {
    throw new PermanentJobError(`The AI model refused to answer: ${excerpt(redact(message.refusal, secrets))}`);
  }
  return parseModelReply(message.content, 'openai-compatible', cfg.model, secrets);
}
