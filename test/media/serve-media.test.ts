/**
 * Serving images to the Electron window (the circa:// protocol's answer): originals are
 * streamed from disk, not read whole on main's thread, and an original Chromium cannot draw
 * (TIFF) is not served at all, so the renderer keeps the thumbnail.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type LibraryDb } from '../../src/main/db/open';
import { PhotoRepository } from '../../src/main/catalogue/photo-repository';
import { serveMedia, type MediaDeps } from '../../src/main/media/media';
import { TileStore } from '../../src/main/media/tile-store';
import { appPaths } from '../../src/main/app-paths';
import { tempDir } from '../support/core';

const corpus = path.resolve(appPaths().root, '..', 'shared', 'corpus', 'exif-samples');
let db: LibraryDb | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await db?.close();
  db = undefined;
});

function library(file: string, format: string): { deps: MediaDeps; id: number } {
  const dir = tempDir();
  db = openDatabase({ file: path.join(dir, 'circa.db'), migrationsFolder: appPaths().migrations });
  const photos = new PhotoRepository(db.sqlite);
  const st = fs.statSync(file);
  const id = photos.insert(
    { sha256: 'ab'.repeat(32), path: file, filename: path.basename(file), size: st.size, mtimeMs: st.mtimeMs },
    Date.now(),
  )!;
  fs.mkdirSync(path.join(dir, 'thumbnails'));
  fs.copyFileSync(path.join(corpus, 'jpg', 'Canon_40D.jpg'), path.join(dir, 'thumbnails', `${id}.jpg`));
  // As the metadata job leaves a photo it read: only such an original is served.
  db.sqlite
    .prepare("UPDATE photos SET format = ?, thumbnail = ?, metadata_status = 'ready' WHERE id = ?")
    .run(format, `thumbnails/${id}.jpg`, id);
  const tiles = new TileStore({ previewsDir: path.join(dir, 'previews'), libraryDir: dir });
  return { deps: { photos, libraryDir: dir, thumbnailsDir: path.join(dir, 'thumbnails'), tiles }, id };
}

describe('serveMedia', () => {
  it('streams the original instead of reading it whole (readFileSync froze main on large scans)', async () => {
    const original = path.join(corpus, 'jpg', 'Canon_40D.jpg');
    const { deps, id } = library(original, 'jpeg');
    const readWhole = vi.spyOn(fs, 'readFileSync');
    const res = await serveMedia(deps, new URL(`circa://app/media/original/${id}`));
    expect(readWhole).not.toHaveBeenCalled();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('content-length')).toBe(String(fs.statSync(original).size));
    const chunks: Uint8Array[] = [];
    for await (const chunk of res.body!) chunks.push(chunk);
    expect(Buffer.concat(chunks).equals(fs.readFileSync(original))).toBe(true);
  });

  it('answers a matching If-None-Match with 304 and no body', async () => {
    const { deps, id } = library(path.join(corpus, 'jpg', 'Canon_40D.jpg'), 'jpeg');
    const url = new URL(`circa://app/media/thumb/${id}`);
    const etag = (await serveMedia(deps, url)).headers.get('etag');
    const res = await serveMedia(deps, url, etag);
    expect(res.status).toBe(304);
    expect(res.body).toBeNull();
  });

  it('does not serve a TIFF original (Chromium cannot draw it); its thumbnail still comes', async () => {
    const tiff = path.join(
      corpus,
      'tiff',
      fs.readdirSync(path.join(corpus, 'tiff')).find((f) => f.endsWith('.tiff'))!,
    );
    const { deps, id } = library(tiff, 'tiff');
    expect((await serveMedia(deps, new URL(`circa://app/media/original/${id}`))).status).toBe(404);
    const thumb = await serveMedia(deps, new URL(`circa://app/media/thumb/${id}`));
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/jpeg');
    await thumb.body!.cancel();
  });

  it('a file removed after it was opened and checked is streamed whole from what was checked, not a crash of main', async () => {
    const copy = path.join(tempDir(), 'vanishing.jpg');
    fs.copyFileSync(path.join(corpus, 'jpg', 'Canon_40D.jpg'), copy);
    const { deps, id } = library(copy, 'jpeg');
    const res = await serveMedia(deps, new URL(`circa://app/media/original/${id}`));
    const bytes = fs.readFileSync(copy);
    fs.rmSync(copy);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
  });
});
