/**
 * How the photo screen shows a photo at full resolution (`photos.viewer`):
 *  - `image`: the original itself, streamed by the media route, when the window can draw it and
 *    it is small enough to decode whole (JPEG, PNG, WebP, GIF, AVIF up to 24 MP);
 *  - `tiles`: its zoom view (a tile pyramid in the library folder), for TIFFs and large scans;
 *  - `preparing`: the `preview` job making that view, started here when there is none (at the
 *    in-view priority: the archivist is looking at it);
 *  - `unavailable`: why there is none (not read yet, the file is missing or changed on disk since
 *    it was imported, making it failed).
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

type Viewer = z.input<typeof viewerSchema>;

/** Above this the original is shown as tiles even where the window could decode it whole. */
export const DIRECT_MAX_PIXELS = 24_000_000;

export interface ViewerDeps {
  photos: PhotoRepository;
  jobs: JobService;
  previewsDir: string;
  /** The library folder: an original that now leads into it is not shown. */
  libraryDir: string;
}

export function viewerOf(deps: ViewerDeps, photoId: number): Viewer {
  const photo = deps.photos.get(photoId);
  if (!photo) throw new CallFailure('not_found', `There is no photo ${photoId}`);
  const width = photo.display_width;
  const height = photo.display_height;
  if (photo.metadata_status !== 'ready' || !width || !height) {
    const reason =
      photo.metadata_status === 'failed'
        ? 'This photo could not be read, so there is no full-resolution view of it.'
        : 'Circa is still reading this photo; its full-resolution view comes after.';
    return { kind: 'unavailable', reason, job: null };
  }
  const version = photo.sha256.slice(0, 12);
  const pyramid = readPyramid(deps.previewsDir, photo.sha256);
  if (pyramid && pyramid.width === width && pyramid.height === height) {
    const { tileSize, overlap, levels } = pyramid;
    return { kind: 'tiles', width, height, tileSize, overlap, levels, version };
  }
  if (!photo.missing && DISPLAYABLE.has(photo.format ?? '') && width * height <= DIRECT_MAX_PIXELS) {
    // Checked as the media route will check it, so a swapped file is explained, not a broken image.
    const opened = openOriginal(photo, deps.libraryDir);
    if (opened.ok) {
      fs.closeSync(opened.fd);
      return { kind: 'image', width, height, version };
    }
    if (!opened.missing) return { kind: 'unavailable', reason: opened.reason, job: null };
  }
  if (photo.missing)
    return {
      kind: 'unavailable',
      reason: 'The file is missing: its full-resolution view can be made once it is found.',
      job: null,
    };

  const subject = `photo:${photoId}`;
  const [latest] = deps.jobs.summaries(deps.jobs.queries.list({ subject, types: ['preview'], limit: 1 }).rows);
  if (latest?.status === 'queued' || latest?.status === 'running') return { kind: 'preparing', width, height, job: latest };
  // A failure is shown, not retried each time the photo opens; its job page offers the retry.
  if (latest?.status === 'failed')
    return {
      kind: 'unavailable',
      reason: `The full-resolution view could not be made: ${latest.errorMessage ?? 'see the job'}`,
      job: latest,
    };
  const { job } = deps.jobs.enqueue({ type: 'preview', payload: { photoId }, priority: IN_VIEW_PRIORITY }, 'user');
  return { kind: 'preparing', width, height, job };
}
