/**
 * Images by opaque photo id — never by path. The renderer asks for /media/thumb/42,
 * /media/original/42 or /media/tile/42/<level>/<col>_<row> (one tile of its zoom view); only
 * files the library knows (a photo's thumbnail inside thumbnails/, the original it imported, a
 * tile of its pyramid inside previews/) are ever served. Used by the Electron circa:// protocol and
 * by browser mode's HTTP route. Originals can be hundreds of megabytes: they are streamed, never
 * read whole on main's thread; a zoom view is served a tile (tens of kB) at a time.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { PhotoRepository } from '../photos/photo-repository';
import { tileFileFor } from './pyramid-files';

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

export interface MediaFile {
  file: string;
  contentType: string;
  etag: string;
  size: number;
}

export interface MediaDeps {
  photos: PhotoRepository;
  libraryDir: string;
  thumbnailsDir: string;
  /** Zoom views; without it no tile is served. */
  previewsDir?: string;
}

export interface TileAddress {
  level: number;
  col: number;
  row: number;
}

export type MediaRequest = { kind: 'thumb' | 'original'; id: number } | ({ kind: 'tile'; id: number } & TileAddress);

/** Parses /media/<kind>/<id> and /media/tile/<id>/<level>/<col>_<row>; anything else is null. */
export function parseMediaPath(pathname: string): MediaRequest | null {
  const m = /^\/media\/(thumb|original)\/([1-9]\d{0,15})$/.exec(pathname);
  if (m) return { kind: m[1] as 'thumb' | 'original', id: Number(m[2]) };
  const t = /^\/media\/tile\/([1-9]\d{0,15})\/(\d{1,2})\/(\d{1,5})_(\d{1,5})$/.exec(pathname);
  return t ? { kind: 'tile', id: Number(t[1]), level: Number(t[2]), col: Number(t[3]), row: Number(t[4]) } : null;
}

/** The file a request names, or null when there is none to serve. */
export function resolveMedia(deps: MediaDeps, req: MediaRequest): MediaFile | null {
  const { kind, id } = req;
  const photo = deps.photos.get(id);
  if (!photo) return null;
  let file: string;
  let contentType: string;
  let tag: string = kind;
  if (req.kind === 'tile') {
    if (!deps.previewsDir) return null;
    file = path.resolve(tileFileFor(deps.previewsDir, photo.sha256, req.level, req.col, req.row));
    // Built from digits and a hash only, but checked like a thumbnail all the same.
    if (!file.startsWith(path.resolve(deps.previewsDir) + path.sep)) return null;
    contentType = 'image/jpeg';
    tag = `tile-${req.level}-${req.col}-${req.row}`;
  } else if (kind === 'thumb') {
    if (!photo.thumbnail) return null;
    file = path.resolve(deps.libraryDir, photo.thumbnail);
    // Defence in depth: a thumbnail path from the database must still lie inside thumbnails/.
    if (!file.startsWith(path.resolve(deps.thumbnailsDir) + path.sep)) return null;
    contentType = 'image/jpeg';
  } else {
    // Only a file the metadata job read as an image Chromium draws is served: never one that
    // failed as "not an image" (a link to /etc/passwd named .jpg), nor one not yet read.
    if (!DISPLAYABLE.has(photo.format ?? '') || photo.metadata_status !== 'ready') return null;
    const known = CONTENT_TYPES[photo.format!]!;
    file = photo.path;
    contentType = known;
  }
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch {
    return null;
  }
  if (!st.isFile()) return null;
  return { file, contentType, etag: `"${photo.sha256.slice(0, 16)}-${tag}"`, size: st.size };
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
export function serveMedia(deps: MediaDeps, url: URL, ifNoneMatch?: string | null): Response {
  const req = parseMediaPath(url.pathname);
  const media = req && resolveMedia(deps, req);
  if (!media) return new Response('Not found', { status: 404 });
  if (ifNoneMatch === media.etag) return new Response(null, { status: 304, headers: { etag: media.etag } });
  const body = Readable.toWeb(fs.createReadStream(media.file)) as ReadableStream<Uint8Array>;
  return new Response(body, { headers: MEDIA_HEADERS(media) });
}
