/**
 * Duplicates, wired: the hash and pair stores, the evidence that travels between confirmed copies,
 * the review decisions, and the scheduler that scans new photos. The core opens it before the job
 * registry (the job halves need the stores) and hands it the job service once that exists.
 */
import { DEFAULT_MAX_DISTANCE } from '../../shared/duplicates/hash-set';
import type { AuditLedger } from '../audit/ledger';
import type { LibraryDb } from '../db/open';
import type { EvidenceStore } from '../evidence/evidence-store';
import type { Logger } from '../logger';
import type { JobService } from '../jobs/service';
import type { PhotoRepository } from '../catalogue/photo-repository';
import { DuplicateGroups } from './duplicate-groups';
import { DuplicateReview } from './duplicate-review';
import { DuplicateStore } from './duplicate-store';
import { EvidencePropagation } from './evidence-propagation';
import { PhotoHashStore } from './photo-hash-store';
import { DuplicateScanScheduler } from './scan-scheduler';

export interface Duplicates {
  hashes: PhotoHashStore;
  store: DuplicateStore;
  review: DuplicateReview;
  /** From now on, new hashes start an incremental scan (and one starts soon if work is waiting). */
  scheduleScans(jobs: JobService): void;
  close(): void;
}

export function openDuplicates(deps: {
  db: LibraryDb;
  ledger: AuditLedger;
  evidence: EvidenceStore;
  photos: PhotoRepository;
  log: Logger;
  onPhotosChanged(ids: number[]): void;
}): Duplicates {
  let scheduler: DuplicateScanScheduler | null = null;
  const hashes = new PhotoHashStore(deps.db.sqlite, () => scheduler?.wanted());
  const store = new DuplicateStore(deps.db.sqlite);
  const propagation = new EvidencePropagation(deps.evidence, store, deps.photos, deps.ledger, deps.onPhotosChanged);
  const groups = new DuplicateGroups(store, deps.photos);
  const review = new DuplicateReview(deps.db, store, groups, propagation, deps.photos, deps.ledger, deps.onPhotosChanged);
  return {
    hashes,
    store,
    review,
    scheduleScans(jobs) {
      scheduler = new DuplicateScanScheduler(
        () => {
          const [r] = jobs.enqueueMany([{ type: 'duplicate_scan', payload: {} }], 'system');
          return { status: r.job.status, created: r.created };
        },
        (err) => deps.log.warn(`duplicate scan not started: ${(err as Error).message}`),
      );
      // A library from before duplicates (or one closed mid-scan) catches up by itself.
      if (hashes.hasWork(DEFAULT_MAX_DISTANCE)) scheduler.wanted();
    },
    close() {
      scheduler?.close();
    },
  };
}
