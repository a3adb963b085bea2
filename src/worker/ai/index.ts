export { analyzeImage } from './analyze';
export {
  analyzeHeuristically,
  cluesFromStats,
  combineClues,
  computeImageStats,
  HISTORICAL_FORMATS,
  type ImageStats,
} from './heuristic';
export { analyzeWithOllama, buildOllamaRequest } from './ollama';
export { analyzeWithOpenAi, buildOpenAiRequest } from './openai';
export { buildPrompt, REPLY_JSON_SCHEMA, REPLY_SCHEMA_NAME } from './prompt';
export { parseModelReply } from './reply';
export { parseRetryAfter, redact, DEFAULT_RETRY_AFTER_MS } from './http';
export { prepareAiJpeg, AI_IMAGE_MAX_SIDE } from './image';
export * from '../../shared/ai/schema';
