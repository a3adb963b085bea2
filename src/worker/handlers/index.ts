/** The worker's handler registry, keyed by job type. */
import { aiHandler } from './ai';
import { diagnosticHandlers } from './diagnostic';
import { metadataHandler } from './metadata';
import { ocrHandler } from './ocr';
import { rebuildHandler } from './rebuild';
import type { RunHandler } from './types';

export function workerHandlers(opts: { diagnostics: boolean }): Record<string, RunHandler> {
  const handlers: Record<string, RunHandler> = {
    metadata: metadataHandler,
    ocr: ocrHandler,
    ai_analysis: aiHandler,
    constraint_rebuild: rebuildHandler,
  };
  if (opts.diagnostics) Object.assign(handlers, diagnosticHandlers);
  return handlers;
}
