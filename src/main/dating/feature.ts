/**
 * The dating room registers here, once: its contract calls (reading a caption, the archivist's own
 * history entries, testing the AI connection) and the main halves of its job types.
 */
import type { Handlers } from '../ipc/dispatcher';
import type { JobService } from '../jobs/service';
import type { ProductHalves } from '../jobs/registry';
import type { SettingsStore } from '../settings/settings';
import { CallFailure } from '../../shared/result';
import { assertUsableAiSettings } from '../../shared/ai/settings-check';
import { captionDates } from './caption-dates';
import { historyEntryCalls } from './history-entry-calls';
import { ocrJob, type OcrJobDeps } from './ocr-job';
import { aiJob, type AiJobDeps } from './ai-job';
import { rebuildJob } from './rebuild-job';
import { aiTestJob, type AiTestJobDeps } from './ai-test-job';

export interface DatingCallDeps {
  settings: SettingsStore;
  jobs: JobService;
  /** Whether the queue is paused (null: this core runs no jobs). */
  runner: { readonly paused: boolean } | null;
}

export type DatingJobDeps = OcrJobDeps & AiJobDeps & AiTestJobDeps & Parameters<typeof rebuildJob>[0];

function datingCalls(core: DatingCallDeps) {
  return {
    'dating.readCaption': ({ text }) => {
      const { numericDateOrder } = core.settings.get();
      return { numericDateOrder, dates: captionDates(text, numericDateOrder) };
    },
    'settings.testAi': ({ aiBackend, aiBaseUrl, aiModel }) => {
      if (aiBackend === 'heuristic')
        throw new CallFailure('conflict', 'The heuristic runs inside Circa: there is no connection to test');
      assertUsableAiSettings({ aiBackend, aiBaseUrl, aiModel });
      // Ahead of any queue: the archivist is waiting for the answer.
      const { job } = core.jobs.enqueue({
        type: 'ai_test',
        payload: { backend: aiBackend, baseUrl: aiBaseUrl, model: aiModel },
        priority: 100,
      });
      return { job, paused: core.runner?.paused ?? false };
    },
  } satisfies Partial<Handlers>;
}

export const datingFeature = {
  calls: (core: DatingCallDeps) => ({ ...datingCalls(core), ...historyEntryCalls(core) }),
  jobs: (deps: DatingJobDeps) =>
    ({
      ocr: ocrJob(deps),
      ai_analysis: aiJob(deps),
      constraint_rebuild: rebuildJob(deps),
      ai_test: aiTestJob(deps),
    }) satisfies Partial<ProductHalves>,
};
