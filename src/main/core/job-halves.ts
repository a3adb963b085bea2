/**
 * Main's half of every product job type, wired to the library's services. `MainHalves` makes a
 * type left out a compile error (the worker's list is src/worker/handlers/index.ts).
 */
import type { ProductJobTypes } from '../../shared/jobs/types';
import type { MainHalves } from '../jobs/registry';
import { metadataJob, type MetadataJobDeps } from '../photos/metadata-job';
import { ocrJob } from '../dating/ocr-job';
import { aiJob } from '../dating/ai-job';
import { rebuildJob } from '../dating/rebuild-job';
import { backupJob, type BackupJobDeps } from '../backup/backup-job';
import { exportJob } from '../export/export-job';
import { duplicateScanJob } from '../duplicates/scan-job';
import type { DuplicateStore } from '../duplicates/duplicate-store';
import { previewJob } from '../photos/preview-job';
import { aiTestJob } from '../dating/ai-test-job';
import { locateJob, type LocateJobDeps } from '../photos/locate-job';

export type ProductHalvesDeps = MetadataJobDeps & {
  backup: BackupJobDeps;
  sqlite: import('better-sqlite3').Database;
  previewsDir: string;
  apiKey(): string | null;
  onPhotosChanged(ids: number[]): void;
  duplicates: DuplicateStore;
  locate: Omit<LocateJobDeps, 'onPhotosChanged'>;
};

export function productMainHalves(deps: ProductHalvesDeps): MainHalves<ProductJobTypes> {
  return {
    metadata: metadataJob(deps),
    ocr: ocrJob(deps),
    ai_analysis: aiJob(deps),
    constraint_rebuild: rebuildJob(deps),
    backup: backupJob(deps.backup),
    export: exportJob(deps),
    duplicate_scan: duplicateScanJob({ ...deps, hashes: deps.photoHashes }),
    preview: previewJob(deps),
    ai_test: aiTestJob(deps),
    locate: locateJob({ ...deps.locate, onPhotosChanged: deps.onPhotosChanged }),
  };
}
