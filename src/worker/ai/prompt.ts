/** The instruction and reply schema shared by every vision-model backend. */
import { AI_CONFIDENCE_CAP, MIN_PHOTO_YEAR, currentYear } from '../../shared/ai/schema';

const nullableYear = {
  type: ['integer', 'null'],
  description: `A year between ${MIN_PHOTO_YEAR} and the current year, or null if it cannot be bounded.`,
} as const;

/**
 * JSON schema of the structured reply, in the subset both Ollama's `format` and OpenAI-style
 * `response_format: json_schema` (strict) accept: every property required, no extra keys.
 * `modelReplySchema` (zod) is the authority that validates what actually comes back.
 */
export const REPLY_JSON_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    earliestYear: nullableYear,
    latestYear: nullableYear,
    confidence: { type: 'number', description: 'Probability (0..1) that the photo was taken within the range.' },
    summary: { type: 'string', description: 'One or two sentences explaining the estimate.' },
    clues: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        properties: {
          category: { type: 'string' },
          observation: { type: 'string' },
          earliestYear: nullableYear,
          latestYear: nullableYear,
        },
        required: ['category', 'observation', 'earliestYear', 'latestYear'],
      },
    },
  },
  required: ['earliestYear', 'latestYear', 'confidence', 'summary', 'clues'],
} as const;

export const REPLY_SCHEMA_NAME = 'photo_date_estimate';

export function buildPrompt(year: number = currentYear()): string {
  return [
    'You are helping an archivist estimate when an undated historical photograph was taken.',
    'Look at the image and reply with JSON only, matching this shape:',
    '{"earliestYear": int|null, "latestYear": int|null, "confidence": number, "summary": string,',
    ' "clues": [{"category": string, "observation": string, "earliestYear": int|null, "latestYear": int|null}]}',
    '',
    'Important:',
    '- Dating photographs by eye is error-prone: published models are off by about 7 years on average and',
    '  people by about 11. Give an honest, WIDE range (usually 15-40 years), never a single year. A range',
    '  that is too narrow is worse than one that is too wide.',
    `- Years must lie between ${MIN_PHOTO_YEAR} and ${year}. earliestYear must not be after latestYear.`,
    '  Use null for an end you cannot bound.',
    `- confidence (0..1) is the probability that the photo was taken inside your range; it is rarely above ${AI_CONFIDENCE_CAP}.`,
    '- Every clue must describe something actually visible, with the range that clue alone supports.',
    '  Useful categories: clothing, hairstyle, vehicle, architecture, interior, technology, signage/text,',
    '  photographic process (tone, colour, fading), print format (borders, shape, mount).',
    '- If text in the photo states a date, report it as a clue with category "text".',
    '- Do not invent clues. If nothing is datable, return null years, confidence 0 and no clues.',
  ].join('\n');
}
