/** The implementation of every contract call, over the core's services. */
import type { CoreServices } from '../core/services';
import { APP_VERSION } from '../app-version';
import type { Handlers } from './dispatcher';
import { CallFailure } from '../../shared/result';
import { archiveHandlers } from './archive-handlers';
import { locateHandlers } from './locate-handlers';
import { historyEntryHandlers } from './history-entry-handlers';
import { viewerOf } from '../media/viewer';
import { assertUsableAiSettings } from '../../shared/ai/settings-check';
import { parseOcrReading } from '../catalogue/photo-repository';
import { importPaths } from '../photos/import-paths';
import { captionDates } from '../dating/caption-dates';

export function createHandlers(core: CoreServices): Handlers {
  return {
    'app.health': () => {
      const stats = core.runner?.getStats();
      return {
        version: APP_VERSION,
        mode: core.mode === 'electron' ? 'electron' : 'browser',
        libraryDir: core.paths.dir,
        schemaVersion: core.db.migration.schemaVersion,
        uptimeMs: Date.now() - core.startedAt,
        workers: {
          alive: stats?.workersAlive ?? 0,
          configured: stats?.workersConfigured ?? 0,
          starting: stats?.workersStarting ?? 0,
          failed: stats?.workersFailed ?? 0,
        },
        paused: stats?.paused ?? false,
      };
    },

    'settings.get': () => core.settings.get(),
    'settings.update': (patch) => core.settings.update(patch),
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

    'jobs.list': (input) => core.jobs.list(input),
    'jobs.types': () => core.jobs.types(),
    'jobs.get': ({ id }) => core.jobs.get(id),
    'jobs.counts': () => ({
      counts: core.jobs.counts(),
      paused: core.runner?.paused ?? false,
      unseenFailed: core.jobs.unseenFailed(),
    }),
    'jobs.enqueue': (input) => core.jobs.enqueue(input),
    'jobs.cancel': ({ id }) => core.jobs.cancel(id),
    'jobs.retry': ({ id, force }) => core.jobs.retry(id, { force }),
    'jobs.retryAllFailed': ({ types }) => core.jobs.retryAllFailed(types),
    'jobs.acknowledge': (target) => ({ acknowledged: core.jobs.acknowledge(target) }),
    'jobs.setPaused': ({ paused }) => {
      core.settings.setFlag('jobs.paused', paused);
      core.runner?.setPaused(paused);
      core.events.emit('jobs.changed', {
        counts: core.jobs.counts(),
        paused,
        changedIds: [],
        unseenFailed: core.jobs.unseenFailed(),
      });
      return { paused };
    },

    'photos.list': (q) => core.photos.list(q),
    'photos.get': ({ id }) => {
      const row = core.photos.get(id);
      const summary = core.photos.summary(id);
      if (!row || !summary) throw new CallFailure('not_found', `There is no photo ${id}`);
      let exif: Record<string, unknown> | null = null;
      try {
        exif = row.exif ? (JSON.parse(row.exif) as Record<string, unknown>) : null;
      } catch {
        /* shown as absent */
      }
      return {
        ...summary,
        size: row.size,
        sha256: row.sha256,
        width: row.width,
        height: row.height,
        orientation: row.orientation,
        isScan: row.is_scan == null ? null : !!row.is_scan,
        scanReason: row.scan_reason,
        scanPolicy: row.scan_policy,
        scanOverride: row.scan_override,
        fileModifiedAt: row.mtime_ms,
        exif,
        phash: row.phash,
        notes: row.notes,
        ocr: parseOcrReading(row.ocr_reading),
        jobs: core.jobs.summaries(core.jobs.queries.list({ subject: `photo:${id}`, limit: 50 }).rows),
      };
    },
    'photos.viewer': ({ id }) =>
      viewerOf({ photos: core.photos, jobs: core.jobs, previewsDir: core.paths.previewsDir, libraryDir: core.paths.dir }, id),
    'photos.inView': ({ ids }) => ({ prioritized: core.jobs.inView(ids) }),
    'photos.import': async ({ paths: typed, confirmed, scanPolicy }) => {
      // Typed paths: never read from the server's own folder (see import-paths.ts).
      const paths = importPaths(typed);
      await core.importer.check(paths, confirmed ?? false);
      return core.importer.start(paths, scanPolicy ?? core.settings.get().defaultScanPolicy);
    },
    'photos.chooseAndImport': async ({ scanPolicy }) => {
      if (!core.platform.chooseImportPaths)
        throw new CallFailure('conflict', 'Choosing files needs the desktop app; in browser mode enter a path instead');
      const paths = await core.platform.chooseImportPaths();
      if (!paths?.length) return null;
      try {
        await core.importer.check(paths, false);
      } catch (err) {
        // Asked natively where the shell can; otherwise the renderer shows the question.
        if (!(err instanceof CallFailure && err.code === 'needs_confirmation' && core.platform.confirm)) throw err;
        if (!(await core.platform.confirm(err.message, 'Import anyway'))) return null;
        await core.importer.check(paths, true);
      }
      return core.importer.start(paths, scanPolicy ?? core.settings.get().defaultScanPolicy);
    },
    'photos.importStatus': () => core.importer.status(),
    'photos.cancelImport': ({ id }) => core.importer.cancel(id),
    'photos.rerun': ({ ids, type }) => {
      const rows = ids.map((id) => core.photos.get(id)).filter((p) => p !== undefined);
      if (!rows.length) throw new CallFailure('not_found', 'None of those photos is in the library');
      // OCR and analysis of a file that could not be read as an image would only fail again, each
      // with the decoder's raw words: skipped and counted (re-running its metadata is the way back).
      const readable = type === 'metadata' ? rows : rows.filter((p) => p.metadata_status !== 'failed');
      const unreadable = rows.length - readable.length;
      const existing = readable.map((p) => p.id);
      const out = core.db.immediate(() => {
        if (type === 'metadata') existing.forEach((id) => core.photos.markPendingAgain(id));
        return core.jobs.enqueueMany(
          existing.map((photoId) => ({ type, payload: { photoId } })),
          'user',
          { supersedeFailures: true },
        );
      });
      core.photosChanged(existing);
      const created = out.filter((o) => o.created).length;
      return { created, alreadyActive: out.length - created, unreadable };
    },
    'photos.setNotes': ({ id, notes }) => core.photoEdits.setNotes(id, notes),
    'photos.remove': ({ ids }) => core.removal.remove(ids),
    'photos.undoRemove': ({ first, last }) => core.removal.undo(first, last),
    'photos.setScanOverride': ({ id, override }) => core.photoEdits.setScanOverride(id, override),

    'evidence.list': ({ photoId, includeSuperseded }) => core.evidenceService.list(photoId, includeSuperseded),
    'evidence.review': ({ id, status, note }) => core.evidenceService.review(id, status, note),
    'evidence.reviewMany': (q) => core.evidenceService.reviewMany(q),
    'dating.readCaption': ({ text }) => {
      const { numericDateOrder } = core.settings.get();
      return { numericDateOrder, dates: captionDates(text, numericDateOrder) };
    },
    'evidence.addManual': ({ photoId, constraint, note }) => core.evidenceService.addManual(photoId, constraint, note),
    'evidence.updateManual': ({ id, constraint, note }) => core.evidenceService.updateManual(id, constraint, note),
    'evidence.removeManual': ({ id }) => core.evidenceService.removeManual(id),

    'history.last': ({ photoId }) => {
      if (!core.photos.get(photoId)) throw new CallFailure('not_found', `There is no photo ${photoId}`);
      return { action: core.actions.last(photoId) };
    },
    'history.undo': ({ actionId, photoId }) => {
      const done = core.db.immediate(() => core.actions.undo(actionId, photoId, (p) => core.evidence.recompute(p)));
      core.photosChanged(done.photoIds);
      return { ...done, next: photoId !== undefined ? core.actions.last(photoId) : null };
    },

    'settings.apiKeyStatus': () => core.apiKeys.status(),
    'settings.setApiKey': async ({ apiKey }) => {
      await core.apiKeys.set(apiKey);
      return { hasApiKey: core.apiKeys.get() !== null };
    },

    'photos.reveal': ({ id }) => {
      const row = core.photos.get(id);
      if (!row) throw new CallFailure('not_found', `There is no photo ${id}`);
      if (!core.platform.revealInFolder) throw new CallFailure('conflict', 'Revealing files needs the desktop app');
      core.platform.revealInFolder(row.path);
      return { revealed: true };
    },

    ...archiveHandlers(core),
    ...locateHandlers(core),
    ...historyEntryHandlers(core),
    'duplicates.list': ({ view, offset, limit }) => core.duplicates.list(view, offset, limit),
    'duplicates.confirm': ({ photoIds, preferredPhotoId }) => core.duplicates.confirm(photoIds, preferredPhotoId),
    'duplicates.notSame': ({ photoIds, from }) => core.duplicates.notSame(photoIds, from),
    'duplicates.proposeAgain': ({ photoIds, from }) => core.duplicates.proposeAgain(photoIds, from),
    'duplicates.unconfirm': ({ groupId }) => core.duplicates.unconfirm(groupId),
    'duplicates.removeFromGroup': ({ photoId }) => core.duplicates.removeFromGroup(photoId),
    'duplicates.setPreferred': ({ groupId, photoId }) => core.duplicates.setPreferred(groupId, photoId),
  };
}
