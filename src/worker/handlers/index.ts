/**
 * The worker's handler registry, keyed by job type.
 *
 * `metadata` is loaded with the worker: it is the first job of every import. The others load on
 * their type's first job, with what they pull in (tesseract.js, chrono-node, edtf, the AI
 * clients): a worker that only reads metadata starts, and is replaced after a crash or a cancel,
 * without parsing them.
 */
import { diagnosticHandlers } from './diagnostic';
import { metadataHandler } from './metadata';
import type { RunHandler } from './types';

/** A handler whose module is imported on its first call (and again after a failed import). */
export function onFirstUse(load: () => Promise<RunHandler>): RunHandler {
  let loading: Promise<RunHandler> | null = null;
  return async (input, ctx) => {
    loading ??= load().catch((err: unknown) => {
      loading = null;
      throw err;
    });
    return (await loading)(input, ctx);
  };
}

export function workerHandlers(opts: { diagnostics: boolean }): Record<string, RunHandler> {
  const handlers: Record<string, RunHandler> = {
    metadata: metadataHandler,
    ocr: onFirstUse(async () => (await import('./ocr')).ocrHandler),
    ai_analysis: onFirstUse(async () => (await import('./ai')).aiHandler),
    constraint_rebuild: onFirstUse(async () => (await import('./rebuild')).rebuildHandler),
  };
  if (opts.diagnostics) Object.assign(handlers, diagnosticHandlers);
  return handlers;
}
