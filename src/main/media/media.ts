/**
 * Images by opaque photo id — never by path given by the renderer. The renderer asks for /media/thumb/42,
 * /media/original/42, /media/tile/42/<level>/<col>_<row> (one tile of its zoom view), and for a
 * later page of a multi-page scan /media/tile/42/p<page>/<level>/<col>_<row> and
 * /media/page-thumb/42/<page>; only files the library knows (a photo's thumbnail inside thumbnails/,
 * the original it imported, a tile of its zoom view inside previews/) are ever served. A tile not
 * made yet is cut from the original when asked for (tile-store.ts), so the first tile of a 300 MB
 * scan does not wait for its whole pyramid. Used by the Electron circa:// protocol and by browser
 * mode's HTTP route. Originals can be hundreds of megabytes: they are streamed, never read whole on
 * main's thread; a zoom view is served a tile (tens of kB) at a time.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { tileRect } from '../../shared/deep-zoom';
import type { PhotoRepository } from '../catalogue/photo-repository';
import { openOriginal } from './original-file';
import { pagesOf, TileRefused, TileStore, type TileAddress } from './tile-store';

const CONTENT_TYPES: Record<string, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  tiff: 'image/tiff',
  webp: 'image/webp',
  gif: 'image/gif',
  avif: 'image/avif',
};

/**
 * Formats Chromium draws. For any other original (TIFF) there is nothing to stream: the
 * renderer gets no original and shows the thumbnail, saying the original cannot be shown.
 */
export const DISPLAYABLE = new Set(['jpeg', 'png', 'webp', 'gif', 'avif']);

/** An opened media file: the caller streams it (mediaStream) or closes it (releaseMedia). */
export interface MediaFile {
  fd: number;
  contentType: string;
  etag: string;
  size: number;
}

/**
 * Why a known photo's image is not served: its file is not the one that was imported (409), or a
 * tile could not be cut from it (422).
 */
export interface MediaRefusal {
  refused: string;
  status: 409 | 422;
}

export interface MediaDeps {
  photos: PhotoRepository;
  libraryDir: string;
  thumbnailsDir: string;
  /** Zoom views, published or cut on demand. */
  tiles: TileStore;
}

/** A page of a photo, numbered from 1 (page 1 is the photo as imported). */
export type MediaRequest =
  | { kind: 'thumb' | 'original'; id: number }
  | { kind: 'page-thumb'; id: number; page: number }
  | ({ kind: 'tile'; id: number; page: number } & TileAddress);

/** Parses the paths in this file's header; anything else is null. */
export function parseMediaPath(pathname: string): MediaRequest | null {
  const m = /^\/media\/(thumb|original)\/([1-9]\d{0,15})$/.exec(pathname);
  if (m) return { kind: m[1] as 'thumb' | 'original', id: Number(m[2]) };
  const p = /^\/media\/page-thumb\/([1-9]\d{0,15})\/([1-9]\d{0,4})$/.exec(pathname);
  if (p) return { kind: 'page-thumb', id: Number(p[1]), page: Number(p[2]) };
  const t = /^\/media\/tile\/([1-9]\d{0,15})\/(?:p([1-9]\d{0,4})\/)?(\d{1,2})\/(\d{1,5})_(\d{1,5})$/.exec(pathname);
  if (!t) return null;
  return { kind: 'tile', id: Number(t[1]), page: Number(t[2] ?? 1), level: Number(t[3]), col: Number(t[4]), row: Number(t[5]) };
}

/**
 * The file a request names, opened; a refusal when it is a photo's original that changed on disk
 * since it was imported (original-file.ts) or a tile that could not be cut; null when there is
 * nothing to serve.
 */
export async function resolveMedia(deps: MediaDeps, req: MediaRequest): Promise<MediaFile | MediaRefusal | null> {
  const { kind, id } = req;
  const photo = deps.photos.get(id);
  if (!photo) return null;
  const etag = (tag: string) => `"${photo.sha256.slice(0, 16)}-${tag}"`;
  if (kind === 'original') {
    // Only a file the metadata job read as an image Chromium draws is served: never one that
    // failed as "not an image" (a link to /etc/passwd named .jpg), nor one not yet read.
    if (!DISPLAYABLE.has(photo.format ?? '') || photo.metadata_status !== 'ready') return null;
    const opened = openOriginal(photo, deps.libraryDir);
    if (!opened.ok) return opened.missing ? null : { refused: opened.reason, status: 409 };
    return { fd: opened.fd, size: opened.size, contentType: CONTENT_TYPES[photo.format!]!, etag: etag(kind) };
  }
  let file: string;
  let tag: string = kind;
  if (req.kind === 'tile' || req.kind === 'page-thumb') {
    // Zoom views are of photos read as images, and of the pages they have.
    if (photo.metadata_status !== 'ready' || req.page > pagesOf(photo)) return null;
    try {
      if (req.kind === 'tile') {
        const geometry = await deps.tiles.geometry(photo, req.page);
        if (!tileRect(geometry, req.level, req.col, req.row)) return null;
        file = await deps.tiles.tileFile(photo, req.page, req);
        tag = `tile-p${req.page}-${req.level}-${req.col}-${req.row}`;
      } else {
        file = await deps.tiles.pageThumbnailFile(photo, req.page);
        tag = `page-${req.page}`;
      }
    } catch (err) {
      if (!(err instanceof TileRefused)) throw err;
      return err.status === 404 ? null : { refused: err.message, status: err.status };
    }
  } else {
    if (!photo.thumbnail) return null;
    file = path.resolve(deps.libraryDir, photo.thumbnail);
    // Defence in depth: a thumbnail path from the database must still lie inside thumbnails/.
    if (!file.startsWith(path.resolve(deps.thumbnailsDir) + path.sep)) return null;
  }
  // Files Circa wrote itself; a link put in their place is not followed.
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  const st = fs.fstatSync(fd);
  if (!st.isFile()) {
    fs.closeSync(fd);
    return null;
  }
  return { fd, size: st.size, contentType: 'image/jpeg', etag: etag(tag) };
}

export function isRefusal(m: MediaFile | MediaRefusal | null): m is MediaRefusal {
  return m !== null && 'refused' in m;
}

/** The opened file's bytes; the descriptor closes when the stream ends or fails. */
export function mediaStream(m: MediaFile): fs.ReadStream {
  return fs.createReadStream('', { fd: m.fd, autoClose: true });
}

/** Closes a media file that will not be streamed (a 304, a HEAD). */
export function releaseMedia(m: MediaFile): void {
  fs.closeSync(m.fd);
}

export const MEDIA_HEADERS = (m: MediaFile) => ({
  'content-type': m.contentType,
  'content-length': String(m.size),
  etag: m.etag,
  // Ids are stable and the renderer adds ?v=<version>, so a long private cache is safe.
  'cache-control': 'private, max-age=31536000, immutable',
  'x-content-type-options': 'nosniff',
});

/** Electron's protocol.handle answer: the file streamed from disk (a read error ends the stream). */
export async function serveMedia(deps: MediaDeps, url: URL, ifNoneMatch?: string | null): Promise<Response> {
  const req = parseMediaPath(url.pathname);
  const media = req && (await resolveMedia(deps, req));
  if (!media) return new Response('Not found', { status: 404 });
  if (isRefusal(media))
    return new Response(media.refused, { status: media.status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  if (ifNoneMatch === media.etag) {
    releaseMedia(media);
    return new Response(null, { status: 304, headers: { etag: media.etag } });
  }
  const body = Readable.toWeb(mediaStream(media)) as ReadableStream<Uint8Array>;
  return new Response(body, { headers: MEDIA_HEADERS(media) });
}
