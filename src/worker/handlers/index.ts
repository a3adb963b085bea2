/**
 * The worker's handler registry, keyed by job type and typed by the shared definitions: a type
 * without a handler, or a handler whose input or output does not match its definition, is a
 * compile error.
 *
 * `metadata` is loaded with the worker: it is the first job of every import. The others load on
 * their type's first job, with what they pull in (tesseract.js, chrono-node, edtf, the AI
 * clients): a worker that only reads metadata starts, and is replaced after a crash or a cancel,
 * without parsing them.
 */
import type { AnyJobType } from '../../shared/jobs/define';
import type { DiagnosticJobTypes, ProductJobTypes } from '../../shared/jobs/types';
import { diagnosticHandlers } from './diagnostic';
import { metadataHandler } from './metadata';
import type { RunHandler, WorkerHalves } from './types';

/** A handler whose module is imported on its first call (and again after a failed import). */
export function onFirstUse<D extends AnyJobType>(load: () => Promise<RunHandler<D>>): RunHandler<D> {
  let loading: Promise<RunHandler<D>> | null = null;
  return async (input, ctx) => {
    loading ??= load().catch((err: unknown) => {
      loading = null;
      throw err;
    });
    return (await loading)(input, ctx);
  };
}

const productHandlers: WorkerHalves<ProductJobTypes> = {
  metadata: metadataHandler,
  ocr: onFirstUse(async () => (await import('./ocr')).ocrHandler),
  ai_analysis: onFirstUse(async () => (await import('./ai')).aiHandler),
  constraint_rebuild: onFirstUse(async () => (await import('./rebuild')).rebuildHandler),
  backup: onFirstUse(async () => (await import('./backup')).backupHandler),
  export: onFirstUse(async () => (await import('./export')).exportHandler),
  duplicate_scan: onFirstUse(async () => (await import('./duplicate-scan')).duplicateScanHandler),
  preview: onFirstUse(async () => (await import('./preview')).previewHandler),
  ai_test: onFirstUse(async () => (await import('./ai-test')).aiTestHandler),
  locate: onFirstUse(async () => (await import('./locate')).locateHandler),
};

export function workerHandlers(opts: { diagnostics: boolean }): Record<string, RunHandler> {
  const handlers: Record<string, RunHandler> = { ...(productHandlers as Record<string, RunHandler>) };
  if (opts.diagnostics) Object.assign(handlers, diagnosticHandlers satisfies WorkerHalves<DiagnosticJobTypes>);
  return handlers;
}
