/**
 * One zoom tile cut straight from the original, for the moment the archivist asks for it: the
 * full pyramid of a 300 MB scan takes tens of seconds to make, one tile a fraction of one.
 *
 * The region the tile covers is extracted at full resolution and, at a coarser level, shrunk to
 * the level's size; then the same steps as the worker's pyramid (orientation applied, transparency
 * on white, JPEG at PYRAMID_QUALITY). At full resolution the bytes are the pyramid's own; a coarser
 * level is shrunk in one step where dzsave halves level by level, so it is a little sharper, never
 * shifted (test/media/tile-cutter.test.ts states the tolerance); it is replaced by the pyramid's
 * own once that is published. Random access (no sequential read), so an uncompressed or strip TIFF reads
 * only the strips the region crosses; an LZW strip TIFF or a PNG decodes up to the region's end.
 *
 * libvips does the work on its own threads: main's event loop only waits for the result.
 */
import sharp from 'sharp';
import { levelFactor, tileRect, type DeepZoomInfo, type DeepZoomSize } from '../../shared/deep-zoom';
import { MAX_INPUT_PIXELS } from '../../shared/jobs/types/metadata';
import { PYRAMID_QUALITY } from '../../shared/jobs/types/preview';

/** A tile of one page (0-based, as the decoder counts) of a file. */
export interface TileSource {
  file: string;
  page: number;
}

const options = (page: number) => ({ page, limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', sequentialRead: false }) as const;

/** A page's size as displayed (EXIF orientation applied), from its header alone. */
export async function pageSize(source: TileSource): Promise<DeepZoomSize> {
  const meta = await sharp(source.file, { ...options(source.page), limitInputPixels: false }).metadata();
  if (!meta.width || !meta.height) throw new Error('the image has no dimensions');
  const turned = (meta.orientation ?? 1) >= 5;
  // metadata() of a multi-page file reports the page's height as pageHeight.
  const height = meta.pageHeight ?? meta.height;
  return turned ? { width: height, height: meta.width } : { width: meta.width, height };
}

/** The JPEG of tile (level, col, row) of `geometry`, cut from `source`; throws when there is no such tile. */
export async function cutTile(
  source: TileSource,
  geometry: DeepZoomInfo,
  level: number,
  col: number,
  row: number,
): Promise<Buffer> {
  const rect = tileRect(geometry, level, col, row);
  if (!rect) throw new RangeError(`there is no tile ${level}/${col}_${row}`);
  const k = levelFactor(geometry, level);
  const left = rect.left * k;
  const top = rect.top * k;
  const region = {
    left,
    top,
    width: Math.min(geometry.width, (rect.left + rect.width) * k) - left,
    height: Math.min(geometry.height, (rect.top + rect.height) * k) - top,
  };
  let img = sharp(source.file, options(source.page)).rotate().extract(region);
  if (k > 1) img = img.resize(rect.width, rect.height, { fit: 'fill' });
  return img.flatten({ background: '#ffffff' }).jpeg({ quality: PYRAMID_QUALITY }).toBuffer();
}

/** A page's picture at most `longSide` px on its long side: the page picker's thumbnail. */
export async function pageThumbnail(source: TileSource, longSide: number, quality: number): Promise<Buffer> {
  return sharp(source.file, options(source.page))
    .rotate()
    .resize(longSide, longSide, { fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality })
    .toBuffer();
}
