/**
 * The app core: everything main does, under plain Node. The Electron shell, browser mode and
 * tests all open the same core; only how workers are spawned and how the renderer is reached
 * differ (both injected).
 */
import { openDatabase, type LibraryDb } from '../db/open';
import { libraryPaths, type LibraryPaths } from '../library/paths';
import { ensureWritableFolders } from '../library/writable';
import { AuditLedger } from '../audit/ledger';
import { JobStore } from '../jobs/store';
import { JobRegistry, diagnosticMainTypes } from '../jobs/registry';
import { JobRunner, silentLogger, type Logger, type RunnerOptions } from '../jobs/runner';
import { JobService } from '../jobs/service';
import type { SpawnWorker } from '../jobs/worker-process';
import { SettingsStore } from '../settings/settings';
import { Coalescer, EventHub } from './event-hub';
import { createDispatcher, type Dispatch } from '../ipc/dispatcher';
import { createHandlers } from '../ipc/handlers';
import { appPaths } from '../app-paths';
import { PhotoRepository } from '../photos/photo-repository';
import { EvidenceStore } from '../evidence/evidence-store';
import { Importer } from '../photos/importer';
import { metadataJob } from '../photos/metadata-job';
import type { MediaDeps } from '../media/media';
import { EvidenceService } from '../evidence/evidence-service';
import { ocrJob } from '../dating/ocr-job';
import { aiJob } from '../dating/ai-job';
import { rebuildJob } from '../dating/rebuild-job';
import { ApiKeyStore, type SecretCipher } from '../settings/secrets';

/** What only the desktop shell can do (native dialogs, the file manager); absent in browser mode. */
export interface PlatformHooks {
  chooseImportPaths?(): Promise<string[] | null>;
  revealInFolder?(path: string): void;
  /** A native yes/no question (e.g. "import a whole disk?"); resolves true for `yes`. */
  confirm?(message: string, yes: string): Promise<boolean>;
  /** OS-backed encryption for secrets (Electron safeStorage). */
  cipher?: SecretCipher;
}

export interface CoreOptions {
  libraryDir: string;
  mode: 'electron' | 'browser' | 'headless' | 'test';
  spawn: SpawnWorker;
  nativeBinding?: string;
  /** Register the diagnostic job types (tests, benchmarks, `CIRCA_DIAGNOSTIC_JOBS=1`). */
  diagnostics?: boolean;
  /** Start the job runner (false: a core that only serves reads and enqueues). */
  runJobs?: boolean;
  concurrency?: number;
  runner?: Partial<RunnerOptions>;
  log?: Logger;
  validateOutputs?: boolean;
  eventIntervalMs?: number;
  platform?: PlatformHooks;
}

export interface Core {
  paths: LibraryPaths;
  db: LibraryDb;
  ledger: AuditLedger;
  jobs: JobService;
  runner: JobRunner | null;
  settings: SettingsStore;
  photos: PhotoRepository;
  evidence: EvidenceStore;
  evidenceService: EvidenceService;
  apiKeys: ApiKeyStore;
  importer: Importer;
  media: MediaDeps;
  platform: PlatformHooks;
  events: EventHub;
  /** Tell renderers these photos changed (coalesced). */
  photosChanged(ids: Iterable<number>): void;
  dispatch: Dispatch;
  mode: CoreOptions['mode'];
  startedAt: number;
  close(graceMs?: number): Promise<void>;
}

export const APP_VERSION = '0.1.0';

export function openCore(opts: CoreOptions): Core {
  const log = opts.log ?? silentLogger;
  const paths = libraryPaths(opts.libraryDir);
  ensureWritableFolders(paths); // a read-only library is refused here, with the reason
  const db = openDatabase({ file: paths.dbFile, migrationsFolder: appPaths().migrations, nativeBinding: opts.nativeBinding });
  const ledger = new AuditLedger(db.sqlite, { keyFile: paths.auditKeyFile, log });
  const store = new JobStore(db, ledger);
  const settings = new SettingsStore(db);
  const events = new EventHub();
  const diagnostics = opts.diagnostics ?? process.env.CIRCA_DIAGNOSTIC_JOBS === '1';
  const registry = new JobRegistry({ diagnostics });
  if (diagnostics) {
    const put = db.sqlite.prepare(
      'INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    );
    for (const t of diagnosticMainTypes((k, v) => put.run(k, v, Date.now()))) registry.register(t);
  }

  const jobChanges = new Coalescer<number>(opts.eventIntervalMs ?? 200, (ids) => {
    try {
      events.emit('jobs.changed', { counts: store.counts(), paused: runner?.paused ?? false, changedIds: ids.slice(0, 500) });
    } catch (err) {
      log.warn(`jobs.changed not sent: ${(err as Error).message}`);
    }
  });
  const jobs = new JobService(store, registry, (ids) => jobChanges.add(ids));

  const photos = new PhotoRepository(db.sqlite);
  const evidence = new EvidenceStore(db.sqlite);
  const photoChanges = new Coalescer<number>(opts.eventIntervalMs ?? 200, (ids) =>
    events.emit('photos.changed', { ids: ids.slice(0, 500), all: ids.length > 500 }),
  );
  registry.register(
    metadataJob({
      photos,
      evidence,
      settings,
      thumbnailsDir: paths.thumbnailsDir,
      libraryDir: paths.dir,
      onPhotoChanged: (id) => photoChanges.add([id]),
    }),
  );
  const onPhotoChanged = (id: number) => photoChanges.add([id]);
  const apiKeys = new ApiKeyStore(settings, opts.platform?.cipher);
  registry.register(ocrJob({ photos, evidence, onPhotoChanged }));
  registry.register(aiJob({ photos, evidence, settings, apiKey: () => apiKeys.get(), onPhotoChanged }));
  registry.register(rebuildJob({ sqlite: db.sqlite, onPhotosChanged: (ids) => photoChanges.add(ids) }));
  const evidenceService = new EvidenceService(db, evidence, photos, ledger, onPhotoChanged);
  const importer = new Importer({
    db,
    photos,
    jobs,
    log,
    onProgress: (p) => events.emit('import.progress', p),
    onPhotosAdded: (ids) => photoChanges.add(ids),
  });

  let runner: JobRunner | null = null;
  if (opts.runJobs !== false) {
    runner = new JobRunner({
      store,
      registry,
      spawn: opts.spawn,
      concurrency: opts.concurrency ?? settings.get().workerCount,
      workerEnv: diagnostics ? { CIRCA_DIAGNOSTIC_JOBS: '1' } : {},
      paused: settings.getFlag('jobs.paused', false),
      log,
      onJobsChanged: (ids) => jobChanges.add(ids),
      ...opts.runner,
    });
    jobs.attachRunner(runner);
    runner.start();
  }

  const core: Core = {
    paths,
    db,
    ledger,
    jobs,
    runner,
    settings,
    photos,
    evidence,
    evidenceService,
    apiKeys,
    importer,
    media: { photos, libraryDir: paths.dir, thumbnailsDir: paths.thumbnailsDir },
    platform: opts.platform ?? {},
    events,
    photosChanged: (ids) => photoChanges.add(ids),
    mode: opts.mode,
    startedAt: Date.now(),
    dispatch: undefined as unknown as Dispatch,
    async close(graceMs = 5_000) {
      await importer.close();
      jobChanges.close();
      photoChanges.close();
      await runner?.stop(graceMs);
      await db.close();
    },
  };
  core.dispatch = createDispatcher(createHandlers(core), {
    validateOutput: opts.validateOutputs ?? process.env.NODE_ENV !== 'production',
    log,
  });
  return core;
}
