/**
 * What a core is made of: the library's services, wired by ./core.ts. The IPC handlers depend on
 * this shape (not on the core that builds it), so core → handlers is the only direction.
 */
import type { LibraryDb } from '../db/open';
import type { LibraryPaths } from '../library/paths';
import type { AuditLedger } from '../audit/ledger';
import type { JobService } from '../jobs/service';
import type { JobRunner } from '../jobs/runner/runner';
import type { SettingsStore } from '../settings/settings';
import type { PhotoRepository } from '../catalogue/photo-repository';
import type { EvidenceStore } from '../evidence/evidence-store';
import type { EvidenceService } from '../evidence/evidence-service';
import type { DuplicateReview } from '../duplicates/duplicate-review';
import type { ActionLog } from '../history/action-log';
import type { PhotoEdits } from '../photos/photo-edits';
import type { PhotoRemoval } from '../photos/photo-removal';
import type { ApiKeyStore, SecretCipher } from '../settings/secrets';
import type { Importer } from '../photos/importer';
import type { FileLocations } from '../photos/file-locations';
import type { MediaDeps } from '../media/media';
import type { EventHub } from './event-hub';
import type { JobChanges } from './job-changes';
import type { ShellHooks } from '../shell-hooks';

/** What only the desktop shell can do: its dialogs (../shell-hooks.ts) and OS-backed encryption. */
export interface PlatformHooks extends ShellHooks {
  /** OS-backed encryption for secrets (Electron safeStorage); its `protection` is shown in Settings. */
  cipher?: SecretCipher;
}

export type CoreMode = 'electron' | 'browser' | 'headless' | 'test';

export interface CoreServices {
  paths: LibraryPaths;
  db: LibraryDb;
  ledger: AuditLedger;
  jobs: JobService;
  runner: JobRunner | null;
  settings: SettingsStore;
  photos: PhotoRepository;
  evidence: EvidenceStore;
  evidenceService: EvidenceService;
  duplicates: DuplicateReview;
  /** The archivist's undo history. */
  actions: ActionLog;
  photoEdits: PhotoEdits;
  removal: PhotoRemoval;
  apiKeys: ApiKeyStore;
  importer: Importer;
  /** Where photos' files are: missing ones, relinks. */
  locations: FileLocations;
  media: MediaDeps;
  platform: PlatformHooks;
  events: EventHub;
  /** Tell renderers these jobs changed: `jobs.changed`, coalesced here and nowhere else. */
  jobChanges: JobChanges;
  /** Tell renderers these photos changed (coalesced). */
  photosChanged(ids: Iterable<number>): void;
  mode: CoreMode;
  startedAt: number;
  /** Replaces the library with the backup at `file` (only when a CoreHost owns the core). */
  restore?(file: string): Promise<import('../backup/restore').RestoreReport & { thumbnailsQueued: number }>;
  /** Electron's build of better-sqlite3, for the files main opens besides the library (backups). */
  nativeBinding?: string;
}
