/**
 * Zoom tiles on demand. A tile the published pyramid has is its file; any other is cut from the
 * original when first asked for (tile-cutter.ts) and kept beside the pyramid, in
 * `previews/<sha[0:2]>/<sha>.cut/p<page>/<level>/<col>_<row>.jpeg`, so it is cut once. The same
 * for a page's thumbnail (`p<page>/thumb.jpeg`), the page picker's picture of a multi-page TIFF.
 *
 * Cuts run at most CUT_CONCURRENCY at a time (a coarse level's tile reads a large part of the
 * scan, and the viewer asks for a dozen at once; run together on a small machine they would all
 * finish late), in the order asked, and a tile asked twice while it is being cut is cut once.
 * The original is checked as the media route checks it (original-file.ts) before each cut, and a
 * cut is written to a temporary name and renamed, so a half-written tile is never served.
 */
import fs from 'node:fs';
import path from 'node:path';
import { deepZoomLevels, type DeepZoomInfo, type DeepZoomSize } from '../../shared/deep-zoom';
import { PYRAMID_OVERLAP, PYRAMID_TILE_SIZE } from '../../shared/jobs/types/preview';
import type { PhotoRow } from '../catalogue/photo-repository';
import { openOriginal } from './original-file';
import { pyramidDirFor, readPyramid, tileFileFor } from './pyramid-files';
import { cutTile, pageSize, pageThumbnail, type TileSource } from './tile-cutter';

export const CUT_CONCURRENCY = 2;
/** The page picker's thumbnails: small, they stand for a page among others. */
export const PAGE_THUMB_LONG_SIDE = 256;
const PAGE_THUMB_QUALITY = 80;

/** Why a tile could not be made: the original changed or is missing, or its decoder failed. */
export class TileRefused extends Error {
  constructor(
    message: string,
    readonly status: 404 | 409 | 422,
  ) {
    super(message);
  }
}

export interface TileStoreDeps {
  previewsDir: string;
  libraryDir: string;
}

export interface TileAddress {
  level: number;
  col: number;
  row: number;
}

/** The folder of cut tiles and page thumbnails of one photo's page (1-based). */
export function cutDirFor(previewsDir: string, sha256: string, page: number): string {
  return path.join(`${pyramidDirFor(previewsDir, sha256)}.cut`, `p${page}`);
}

/** Pages are numbered from 1, as an archivist counts them; a photo without a count has one. */
export function pagesOf(photo: PhotoRow): number {
  return Math.max(1, photo.page_count ?? 1);
}

export class TileStore {
  private readonly running = new Map<string, Promise<string>>();
  private readonly sizes = new Map<string, DeepZoomSize>();
  private readonly waiting: (() => void)[] = [];
  private active = 0;

  constructor(private readonly deps: TileStoreDeps) {}

  /**
   * The zoom geometry of a photo's page: the published pyramid's, else the recorded size (page 1)
   * or the page's own header (a later page may differ in size). Throws TileRefused when the
   * original cannot be read for a later page.
   */
  async geometry(photo: PhotoRow, page: number): Promise<DeepZoomInfo> {
    let size: DeepZoomSize | null = null;
    if (page === 1) {
      const pyramid = readPyramid(this.deps.previewsDir, photo.sha256);
      if (pyramid) return pyramid;
      if (photo.display_width && photo.display_height) size = { width: photo.display_width, height: photo.display_height };
    }
    size ??= await this.pageSize(photo, page);
    const levels = deepZoomLevels(size.width, size.height, PYRAMID_TILE_SIZE);
    return { ...size, tileSize: PYRAMID_TILE_SIZE, overlap: PYRAMID_OVERLAP, levels };
  }

  /** The file of a tile: the pyramid's when published (page 1), else a cut one, cut now if need be. */
  async tileFile(photo: PhotoRow, page: number, at: TileAddress): Promise<string> {
    if (page === 1) {
      const published = tileFileFor(this.deps.previewsDir, photo.sha256, at.level, at.col, at.row);
      if (fs.existsSync(published)) return published;
    }
    const geometry = await this.geometry(photo, page);
    const file = path.join(cutDirFor(this.deps.previewsDir, photo.sha256, page), String(at.level), `${at.col}_${at.row}.jpeg`);
    return this.once(file, (source) => cutTile(source, geometry, at.level, at.col, at.row), photo, page);
  }

  /** The page picker's thumbnail of a page, made on first request. */
  pageThumbnailFile(photo: PhotoRow, page: number): Promise<string> {
    const file = path.join(cutDirFor(this.deps.previewsDir, photo.sha256, page), 'thumb.jpeg');
    return this.once(file, (source) => pageThumbnail(source, PAGE_THUMB_LONG_SIDE, PAGE_THUMB_QUALITY), photo, page);
  }

  /** A later page's size, from its header (kept: the viewer asks for it with every tile). */
  private async pageSize(photo: PhotoRow, page: number): Promise<DeepZoomSize> {
    const key = `${photo.sha256}:${page}`;
    const known = this.sizes.get(key);
    if (known) return known;
    const size = await this.withOriginal(photo, page, (source) => pageSize(source));
    if (this.sizes.size > 512) this.sizes.clear();
    this.sizes.set(key, size);
    return size;
  }

  private once(file: string, make: (source: TileSource) => Promise<Buffer>, photo: PhotoRow, page: number): Promise<string> {
    if (fs.existsSync(file)) return Promise.resolve(file);
    const pending = this.running.get(file);
    if (pending) return pending;
    const work = this.gated(async () => {
      if (fs.existsSync(file)) return file; // cut while this request waited its turn
      const bytes = await this.withOriginal(photo, page, make);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const temp = `${file}.${process.pid}-${Math.random().toString(36).slice(2)}.tmp`;
      fs.writeFileSync(temp, bytes);
      fs.renameSync(temp, file);
      return file;
    }).finally(() => this.running.delete(file));
    this.running.set(file, work);
    return work;
  }

  /** Runs `use` on the photo's checked original (see original-file.ts); its failures in words. */
  private async withOriginal<T>(photo: PhotoRow, page: number, use: (source: TileSource) => Promise<T>): Promise<T> {
    const opened = openOriginal(photo, this.deps.libraryDir);
    if (!opened.ok) throw new TileRefused(opened.reason, opened.missing ? 404 : 409);
    try {
      return await use({ file: photo.path, page: page - 1 });
    } catch (err) {
      throw new TileRefused(`The zoom view of ${photo.filename} could not be cut: ${(err as Error).message}`, 422);
    } finally {
      fs.closeSync(opened.fd);
    }
  }

  private async gated<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= CUT_CONCURRENCY) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await task();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}
