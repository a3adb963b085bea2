/** Turns a vision model's structured reply into an AiAnalysis, or a PermanentJobError saying why not. */
import { formatPercent } from '../../shared/format-percent';
import { PermanentJobError } from '../../shared/jobs/errors';
import { excerpt, redact } from './http';
import { AI_CONFIDENCE_CAP, modelReplySchema, type AiAnalysis, type AiBackendKind } from '../../shared/ai/schema';

/** Some models wrap JSON in a Markdown fence even when asked for structured output. */
function unfence(s: string): string {
  const m = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/i.exec(s);
  return m ? m[1] : s;
}

export function parseModelReply(
  content: unknown,
  backend: Exclude<AiBackendKind, 'heuristic'>,
  model: string,
  secrets: readonly (string | null | undefined)[] = [],
): AiAnalysis {
  if (typeof content !== 'string' || content.trim() === '') {
    throw new PermanentJobError(
      `The AI model sent no reply content: ${excerpt(redact(JSON.stringify(content) ?? 'undefined', secrets))}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(unfence(content));
  } catch {
    throw new PermanentJobError(`The AI model's reply is not valid JSON: ${excerpt(redact(content, secrets))}`);
  }
  const parsed = modelReplySchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
      .join('; ');
    throw new PermanentJobError(
      `The AI model's reply does not match the expected schema (${issues}). Reply: ${excerpt(redact(content, secrets))}`,
    );
  }
  const reply = parsed.data;
  const confidence = Math.min(reply.confidence, AI_CONFIDENCE_CAP);
  const capped =
    reply.confidence > AI_CONFIDENCE_CAP
      ? ` (model said ${formatPercent(reply.confidence)}; capped at ${formatPercent(AI_CONFIDENCE_CAP)})`
      : '';
  const summary = [
    reply.summary?.trim(),
    `Machine estimate by ${model}: weak evidence, error-prone by several years; evidence confidence ${formatPercent(confidence)}${capped}.`,
  ]
    .filter(Boolean)
    .join(' ');
  return {
    backend,
    model,
    earliestYear: reply.earliestYear,
    latestYear: reply.latestYear,
    confidence,
    summary,
    clues: reply.clues.map((c) => ({
      category: c.category,
      observation: c.observation,
      earliestYear: c.earliestYear,
      latestYear: c.latestYear,
      confidence,
    })),
  };
}
