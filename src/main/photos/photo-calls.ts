/** The contract calls about the photos themselves: the grid, one photo, import, re-runs, edits, removal. */
import type { LibraryDb } from '../db/open';
import type { LibraryPaths } from '../library/paths';
import type { JobService } from '../jobs/service';
import type { ShellHooks } from '../shell-hooks';
import type { Handlers } from '../ipc/dispatcher';
import type { SettingsStore } from '../settings/settings';
import { CallFailure } from '../../shared/result';
import { readsPhoto } from '../../shared/jobs/types';
import { viewerOf, type ViewerDeps } from '../media/viewer';
import { parseOcrReading, type PhotoRepository } from '../catalogue/photo-repository';
import { importPaths } from './import-paths';
import type { Importer } from './importer';
import type { PhotoEdits } from './photo-edits';
import type { PhotoRemoval } from './photo-removal';

export interface PhotoCallDeps {
  db: LibraryDb;
  paths: LibraryPaths;
  jobs: JobService;
  settings: SettingsStore;
  photos: PhotoRepository;
  importer: Importer;
  photoEdits: PhotoEdits;
  removal: PhotoRemoval;
  platform: ShellHooks;
  /** Zoom tiles, published or cut on demand (src/main/media/tile-store.ts). */
  media: { tiles: ViewerDeps['tiles'] };
  /** Tell renderers these photos changed (coalesced). */
  photosChanged(ids: Iterable<number>): void;
}

type PhotoCalls = { [N in Extract<keyof Handlers, `photos.${string}`>]?: Handlers[N] };

export function photoCalls(core: PhotoCallDeps) {
  return {
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
        pageCount: Math.max(1, row.page_count ?? 1),
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
    'photos.viewer': ({ id, page }) =>
      viewerOf(
        {
          photos: core.photos,
          jobs: core.jobs,
          tiles: core.media.tiles,
          previewsDir: core.paths.previewsDir,
          libraryDir: core.paths.dir,
        },
        id,
        page,
      ),
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
      // with the decoder's raw words: skipped and counted (re-running its reading is the way back).
      const rereads = readsPhoto(type);
      const readable = rereads ? rows : rows.filter((p) => p.metadata_status !== 'failed');
      const unreadable = rows.length - readable.length;
      const existing = readable.map((p) => p.id);
      const out = core.db.immediate(() => {
        if (rereads) existing.forEach((id) => core.photos.markPendingAgain(id));
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

    'photos.reveal': ({ id }) => {
      const row = core.photos.get(id);
      if (!row) throw new CallFailure('not_found', `There is no photo ${id}`);
      if (!core.platform.revealInFolder) throw new CallFailure('conflict', 'Revealing files needs the desktop app');
      core.platform.revealInFolder(row.path);
      return { revealed: true };
    },
  } satisfies PhotoCalls;
}
