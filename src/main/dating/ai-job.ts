/**
 * Main's half of the `ai_analysis` job. Machine dating is weak evidence (published models are off
 * by ~7 years on average): the analysis becomes one low-confidence estimate with its clues kept
 * as details for the archivist to weigh.
 */
import { formatPercent } from '../../shared/format-percent';
import { weakClueTag } from '../../shared/dating/clue-words';
import { PermanentJobError } from '../../shared/jobs/errors';
import type { AiBackendConfig } from '../../shared/ai/schema';
import { aiAnalysisJobType, type AiAnalysisJobType } from '../../shared/jobs/types/ai-analysis';
import type { MainHalf } from '../jobs/registry';
import type { EvidenceStore } from '../evidence/evidence-store';
import type { PhotoRepository } from '../catalogue/photo-repository';
import type { SettingsStore } from '../settings/settings';
import { aiEvidence } from './ai-evidence';
import { waitForFile } from './waiting-for-file';

export interface AiJobDeps {
  photos: PhotoRepository;
  evidence: EvidenceStore;
  settings: SettingsStore;
  apiKey(): string | null;
  onPhotoChanged(id: number): void;
}

export function aiJob(deps: AiJobDeps): MainHalf<AiAnalysisJobType> {
  const timeoutMs = aiAnalysisJobType.limits.requestTimeoutMs;
  return {
    load({ payload }) {
      const photo = deps.photos.forJob(payload.photoId);
      waitForFile(photo);
      const s = deps.settings.get();
      let backend: AiBackendConfig;
      if (s.aiBackend === 'heuristic') backend = { kind: 'heuristic' };
      else {
        if (!s.aiBaseUrl || !s.aiModel)
          throw new PermanentJobError(`The ${s.aiBackend} backend needs a server URL and a model (Settings → Visual analysis)`);
        backend =
          s.aiBackend === 'ollama'
            ? { kind: 'ollama', baseUrl: s.aiBaseUrl, model: s.aiModel }
            : { kind: 'openai-compatible', baseUrl: s.aiBaseUrl, model: s.aiModel, apiKey: deps.apiKey() };
      }
      // The key travels to the worker in memory only; it is never stored with the job.
      return { path: photo.path, backend, timeoutMs };
    },
    apply(out, job) {
      const photoId = job.payload.photoId;
      if (!deps.photos.get(photoId)) throw new PermanentJobError(`Photo ${photoId} was removed during the analysis`);
      const items = aiEvidence(out);
      deps.evidence.recordFromJob(photoId, 'ai', items, { id: job.id, attempt: job.attempt });
      deps.onPhotoChanged(photoId);
      return items.length
        ? `${out.backend}: ${out.earliestYear ?? '…'}–${out.latestYear ?? '…'}, ${weakClueTag(out)} (evidence confidence ${formatPercent(out.confidence)})`
        : `${out.backend}: no dating clues`;
    },
  };
}
