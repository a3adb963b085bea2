/**
 * The app core: everything main does, under plain Node. The Electron shell, browser mode and
 * tests all open the same core; only how workers are spawned and how the renderer is reached
 * differ (both injected). This is the composition root: it wires the services (./services.ts),
 * the feature rooms' registrations (./features.ts), the runner, and the IPC dispatcher over them.
 */
import { openDatabase } from '../db/open';
import { libraryPaths } from '../library/paths';
import { ensureWritableFolders } from '../library/writable';
import { AuditLedger } from '../audit/ledger';
import { JobTransitions } from '../jobs/store/transitions';
import { JobQueries } from '../jobs/store/queries';
import { JobRegistry, diagnosticMainHalves } from '../jobs/registry';
import { JobRunner, type RunnerOptions } from '../jobs/runner/runner';
import { silentLogger, type Logger } from '../logger';
import { JobService } from '../jobs/service';
import type { SpawnWorker } from '../jobs/worker-process';
import { SettingsStore } from '../settings/settings';
import { startLeftoverSweep } from '../library/leftovers';
import { startOrphanedViewSweep } from '../media/orphaned-views';
import { Coalescer, EventHub } from './event-hub';
import { openJobChanges } from './job-changes';
import { systemClock, type Clock } from '../jobs/clock';
import { createDispatcher, type Dispatch } from '../ipc/dispatcher';
import { appPaths } from '../app-paths';
import { PhotoRepository } from '../catalogue/photo-repository';
import { EvidenceStore } from '../evidence/evidence-store';
import { Importer } from '../photos/importer';
import { FileLocations } from '../photos/file-locations';
import { FileStamps } from '../photos/file-stamps';
import { PhotoRemoval } from '../photos/photo-removal';
import { EvidenceService } from '../evidence/evidence-service';
import { ApiKeyStore } from '../settings/secrets';
import { openDuplicates } from '../duplicates';
import { TileStore } from '../media/tile-store';
import { allCalls, productMainHalves } from './features';
import { preMigrationBackup } from '../backup/pre-migration';
import { BackupScheduler } from '../backup/scheduler';
import { backupFolderOf } from '../backup/backup-folder';
import { ActionLog } from '../history/action-log';
import { PhotoEdits } from '../photos/photo-edits';
import type { CoreMode, CoreServices, PlatformHooks } from './services';
import { wakeJobsWaitingFor } from '../dating/waiting-for-file';
import { notesReader } from '../dating/note-evidence';
import { warmedWhenQuiet } from '../dating/note-reader-warm-up';
import { UserActivity } from '../ipc/user-activity';

export type { PlatformHooks } from './services';

export interface CoreOptions {
  libraryDir: string;
  mode: CoreMode;
  spawn: SpawnWorker;
  nativeBinding?: string;
  /** Register the diagnostic job types (tests, benchmarks, `CIRCA_DIAGNOSTIC_JOBS=1`). */
  diagnostics?: boolean;
  /** Start the job runner (false: a core that only serves reads and enqueues). */
  runJobs?: boolean;
  /**
   * Warm the note readers at the first quiet moment after open (default true). The queue bench
   * turns it off: it opens a core per measurement, and a user's session pays it once.
   */
  warmUpReaders?: boolean;
  concurrency?: number;
  runner?: Partial<RunnerOptions>;
  log?: Logger;
  validateOutputs?: boolean;
  eventIntervalMs?: number;
  /** The time pushed events are coalesced on (tests pass one they advance). */
  eventClock?: Clock;
  platform?: PlatformHooks;
  /** Back up an existing library before migrating it (default true; a restore skips it: its source is a backup). */
  preMigrationBackup?: boolean;
  /** Scheduled backups (default: in the app and browser mode, when jobs run). */
  backupSchedule?: boolean;
  /** Replaces the library with a backup (given by the CoreHost that owns this core; absent: restore is refused). */
  restore?: CoreServices['restore'];
}

export interface Core extends CoreServices {
  dispatch: Dispatch;
  close(graceMs?: number): Promise<void>;
}

const DAY = 86_400_000;

export function openCore(opts: CoreOptions): Core {
  const log = opts.log ?? silentLogger;
  const paths = libraryPaths(opts.libraryDir);
  ensureWritableFolders(paths); // a read-only library is refused here, with the reason
  const db = openDatabase({
    file: paths.dbFile,
    migrationsFolder: appPaths().migrations,
    nativeBinding: opts.nativeBinding,
    beforeMigrate:
      opts.preMigrationBackup === false
        ? undefined
        : (sqlite) => void preMigrationBackup(sqlite, { paths, log, nativeBinding: opts.nativeBinding }),
  });
  const ledger = new AuditLedger(db.sqlite, { keyFile: paths.auditKeyFile, counterFile: paths.auditCounterFile, log });
  const transitions = new JobTransitions(db, ledger);
  const queries = new JobQueries(db.sqlite);
  const settings = new SettingsStore(db);
  const leftovers = startLeftoverSweep(
    {
      libraryDir: paths.dir,
      thumbnailsDir: paths.thumbnailsDir,
      backupDirs: [...new Set([paths.backupsDir, backupFolderOf(settings, paths).dir])],
    },
    log,
  );
  const events = new EventHub();
  const photos = new PhotoRepository(db.sqlite);
  const evidence = new EvidenceStore(db.sqlite);
  const apiKeys = new ApiKeyStore(settings, opts.platform?.cipher, process.env, opts.mode === 'electron');
  let runner: JobRunner | null = null;
  const userActivity = new UserActivity(); // told of every request by the dispatcher; read by background work

  const eventClock = opts.eventClock ?? systemClock;
  const photoChanges = new Coalescer<number>(
    opts.eventIntervalMs ?? 200,
    (ids) => events.emit('photos.changed', { ids: ids.slice(0, 500), all: ids.length > 500 }),
    { clock: eventClock },
  );
  const onPhotoChanged = (id: number) => photoChanges.add([id]);
  // The one coalescing of jobs.changed: the service's and the runner's changes alike.
  const jobChanges = openJobChanges({
    events,
    queries,
    paused: () => runner?.paused ?? settings.getFlag('jobs.paused', false),
    intervalMs: opts.eventIntervalMs ?? 200,
    clock: eventClock,
    log,
  });

  const duplicates = openDuplicates({ db, ledger, evidence, photos, log, onPhotosChanged: (ids) => photoChanges.add(ids) });

  const locations = new FileLocations(db, ledger);
  const fileStamps = new FileStamps();
  const diagnostics = opts.diagnostics ?? process.env.CIRCA_DIAGNOSTIC_JOBS === '1';
  const registry = new JobRegistry(
    productMainHalves({
      photos,
      evidence,
      photoHashes: duplicates.hashes,
      hashes: duplicates.hashes,
      stamps: fileStamps,
      duplicates: duplicates.store,
      settings,
      sqlite: db.sqlite,
      thumbnailsDir: paths.thumbnailsDir,
      libraryDir: paths.dir,
      previewsDir: paths.previewsDir,
      apiKey: () => apiKeys.get(),
      onPhotoChanged,
      onPhotosChanged: (ids) => photoChanges.add(ids),
      userActivity,
      // `jobs` exists by the time a locate job ends (it is built just below).
      locate: {
        locations,
        reread: (ids) =>
          jobs.enqueueMany(
            ids.map((photoId) => ({ type: 'metadata', payload: { photoId } })),
            'user',
          ),
        // OCR and analysis jobs waiting for these files (see dating/waiting-for-file.ts) run now.
        onRelinked: (ids) => void wakeJobsWaitingFor(jobs, ids),
      },
      backup: {
        paths,
        settings,
        nativeBinding: opts.nativeBinding,
        // After the commit that records the backup (apply runs inside it).
        onBackupsChanged: () => setImmediate(() => events.emit('backups.changed', {})),
      },
    }),
    diagnostics ? diagnosticMainHalves(diagnosticMarkerWriter(db.sqlite)) : undefined,
  );
  const jobs = new JobService(
    transitions,
    queries,
    registry,
    (ids) => jobChanges.add(ids),
    (ids) => photos.names(ids),
  );
  duplicates.scheduleScans(jobs);
  const actions = new ActionLog(db.sqlite, ledger);
  const evidenceService = new EvidenceService(db, evidence, photos, ledger, actions, onPhotoChanged);
  const notes =
    opts.warmUpReaders === false
      ? { read: notesReader(settings), cancel: () => {} }
      : warmedWhenQuiet(notesReader(settings), { activity: userActivity, clock: systemClock, log });
  const photoEdits = new PhotoEdits(db, photos, evidence, ledger, actions, onPhotoChanged, notes.read);
  // Photos leave and come back anywhere in any sort order: every open grid re-reads what it shows.
  const removal = new PhotoRemoval(db, jobs, ledger, () => events.emit('photos.changed', { ids: [], all: true }));
  const orphanedViews = startOrphanedViewSweep(paths.previewsDir, (sha) => removal.holdsView(sha), log);
  const importer = new Importer({
    db,
    photos,
    jobs,
    locations,
    stamps: fileStamps,
    log,
    onProgress: (p) => events.emit('import.progress', p),
    onPhotosAdded: (ids) => photoChanges.add(ids),
  });
  // Files moved or deleted while the library was closed show as missing without waiting for a job to fail.
  const fileCheck = new AbortController();
  const fileCheckDone = locations
    .checkAll(fileCheck.signal, (ids) => photoChanges.add(ids))
    .catch((err: Error) => log.error(`checking where the photos' files are failed: ${err.stack ?? err.message}`));

  if (opts.runJobs !== false) {
    runner = new JobRunner({
      transitions,
      registry,
      spawn: opts.spawn,
      concurrency: opts.concurrency ?? settings.get().workerCount,
      retentionMs: () => settings.get().jobRetentionDays * DAY,
      workerEnv: diagnostics ? { CIRCA_DIAGNOSTIC_JOBS: '1' } : {},
      paused: settings.getFlag('jobs.paused', false),
      log,
      onJobsChanged: (ids) => jobChanges.add(ids),
      ...opts.runner,
    });
    jobs.attachRunner(runner);
    runner.start();
    // The worker count applies live, unless the caller fixed it (circa-worker --concurrency).
    const live = opts.concurrency === undefined ? runner : null;
    settings.onChange((s) => live?.setConcurrency(s.workerCount));
  }
  const scheduler =
    runner && (opts.backupSchedule ?? (opts.mode === 'electron' || opts.mode === 'browser'))
      ? new BackupScheduler({ settings, jobs, folder: () => backupFolderOf(settings, paths), log })
      : null;
  scheduler?.start();

  const services: CoreServices = {
    paths,
    db,
    ledger,
    jobs,
    runner,
    settings,
    photos,
    evidence,
    evidenceService,
    duplicates: duplicates.review,
    actions,
    photoEdits,
    removal,
    apiKeys,
    importer,
    locations,
    media: {
      photos,
      libraryDir: paths.dir,
      thumbnailsDir: paths.thumbnailsDir,
      tiles: new TileStore({ previewsDir: paths.previewsDir, libraryDir: paths.dir }),
    },
    platform: opts.platform ?? {},
    events,
    jobChanges,
    photosChanged: (ids) => photoChanges.add(ids),
    mode: opts.mode,
    startedAt: Date.now(),
    restore: opts.restore,
    nativeBinding: opts.nativeBinding,
  };
  const dispatch = createDispatcher(allCalls(services), {
    validateOutput: opts.validateOutputs ?? process.env.NODE_ENV !== 'production',
    log,
    onRequest: userActivity.noteRequest,
  });
  return {
    ...services,
    dispatch,
    async close(graceMs = 5_000) {
      scheduler?.close();
      notes.cancel();
      await importer.close();
      duplicates.close();
      fileCheck.abort();
      await fileCheckDone;
      jobChanges.close();
      photoChanges.close();
      await runner?.stop(graceMs);
      await leftovers.close();
      await orphanedViews.close();
      ledger.flushCounter();
      await db.close();
    },
  };
}

/** Diagnostic types' `apply` writes a marker row (settings `diag.<type>.<key>`) so tests can see what committed. */
export function diagnosticMarkerWriter(sqlite: import('better-sqlite3').Database): (key: string, value: string) => void {
  const put = sqlite.prepare(
    'INSERT INTO settings (key, value, updated_at) VALUES (@key, @value, @now) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  );
  return (key, value) => put.run({ key, value, now: Date.now() });
}
