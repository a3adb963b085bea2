/** The worker's handler registry, keyed by job type. */
import { diagnosticHandlers } from './diagnostic';
import { metadataHandler } from './metadata';
import type { RunHandler } from './types';

export function workerHandlers(opts: { diagnostics: boolean }): Record<string, RunHandler> {
  const handlers: Record<string, RunHandler> = {
    metadata: metadataHandler,
  };
  if (opts.diagnostics) Object.assign(handlers, diagnosticHandlers);
  return handlers;
}
