/**
 * How the photo screen shows a page of a photo at full resolution (`photos.viewer`):
 *  - `image`: the original itself, streamed by the media route, when the window can draw it and
 *    it is small enough to decode whole (JPEG, PNG, WebP, GIF, AVIF up to 24 MP; page 1 only);
 *  - `tiles`: its zoom view, for TIFFs, large scans and every later page of a multi-page file. It
 *    is there at once: a tile not made yet is cut from the original when the viewer asks for it
 *    (tile-store.ts), while the `preview` job (started here, at the in-view priority: the
 *    archivist is looking at it) makes the whole pyramid of page 1 behind;
 *  - `unavailable`: why there is none (not read yet, the file is missing or changed on disk since
 *    it was imported, making it failed).
 * A multi-page TIFF is one photo with several pages (a print's front and back, an album leaf's
 * pages): each page is viewed here, numbered from 1, never catalogued as a photo of its own.
 */
import fs from 'node:fs';
import type { z } from 'zod';
import type { viewerSchema } from '../../shared/contract';
import { CallFailure } from '../../shared/result';
import { IN_VIEW_PRIORITY, type JobService } from '../jobs/service';
import type { PhotoRepository } from '../catalogue/photo-repository';
import { DISPLAYABLE } from './media';
import { openOriginal } from './original-file';
import { readPyramid } from './pyramid-files';
import { pagesOf, TileRefused, type TileStore } from './tile-store';

type Viewer = z.input<typeof viewerSchema>;

/** Above this the original is shown as tiles even where the window could decode it whole. */
export const DIRECT_MAX_PIXELS = 24_000_000;

export interface ViewerDeps {
  photos: PhotoRepository;
  jobs: JobService;
  tiles: TileStore;
  previewsDir: string;
  /** The library folder: an original that now leads into it is not shown. */
  libraryDir: string;
}

export async function viewerOf(deps: ViewerDeps, photoId: number, page = 1): Promise<Viewer> {
  const photo = deps.photos.get(photoId);
  if (!photo) throw new CallFailure('not_found', `There is no photo ${photoId}`);
  const pages = pagesOf(photo);
  if (page > pages)
    throw new CallFailure('not_found', `${photo.filename} has ${pages === 1 ? 'one page' : `${pages} pages`}, not ${page}`);
  const width = photo.display_width;
  const height = photo.display_height;
  if (photo.metadata_status !== 'ready' || !width || !height) {
    const reason =
      photo.metadata_status === 'failed'
        ? 'This photo could not be read, so there is no full-resolution view of it.'
        : 'Circa is still reading this photo; its full-resolution view comes after.';
    return { kind: 'unavailable', reason, job: null };
  }
  const version = `${photo.sha256.slice(0, 12)}${page > 1 ? `-p${page}` : ''}`;
  if (page === 1) {
    const pyramid = readPyramid(deps.previewsDir, photo.sha256);
    if (pyramid && pyramid.width === width && pyramid.height === height) {
      const { tileSize, overlap, levels } = pyramid;
      return { kind: 'tiles', width, height, tileSize, overlap, levels, version };
    }
  }
  if (photo.missing)
    return {
      kind: 'unavailable',
      reason: 'The file is missing: its full-resolution view can be made once it is found.',
      job: null,
    };
  // Checked as the media route will check it, so a swapped file is explained, not a broken image.
  const opened = openOriginal(photo, deps.libraryDir);
  if (!opened.ok) return { kind: 'unavailable', reason: opened.reason, job: null };
  fs.closeSync(opened.fd);
  if (page === 1 && DISPLAYABLE.has(photo.format ?? '') && width * height <= DIRECT_MAX_PIXELS)
    return { kind: 'image', width, height, version };

  if (page === 1) {
    const subject = `photo:${photoId}`;
    const [latest] = deps.jobs.summaries(deps.jobs.queries.list({ subject, types: ['preview'], limit: 1 }).rows);
    // A failure is shown, not retried each time the photo opens; its job page offers the retry.
    if (latest?.status === 'failed')
      return {
        kind: 'unavailable',
        reason: `The full-resolution view could not be made: ${latest.errorMessage ?? 'see the job'}`,
        job: latest,
      };
    if (latest?.status !== 'queued' && latest?.status !== 'running')
      deps.jobs.enqueue({ type: 'preview', payload: { photoId }, priority: IN_VIEW_PRIORITY }, 'user');
  }
  try {
    const g = await deps.tiles.geometry(photo, page);
    return {
      kind: 'tiles',
      width: g.width,
      height: g.height,
      tileSize: g.tileSize,
      overlap: g.overlap,
      levels: g.levels,
      version,
    };
  } catch (err) {
    if (!(err instanceof TileRefused)) throw err;
    return { kind: 'unavailable', reason: err.message, job: null };
  }
}
