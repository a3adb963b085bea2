/**
 * The viewer's geometry, as plain functions: a view is a scale (screen px per image px) and where
 * the image's top-left corner is on screen. Fit, actual size, zooming about a point, keeping the
 * image in view, and which pyramid level and tiles cover what is on screen.
 */
import { levelGrid, levelSize, tileRect, type DeepZoomInfo } from '../../../../../shared/deep-zoom';

export interface Size {
  width: number;
  height: number;
}

export interface View {
  /** Screen px per image px: 1 is actual size ("1:1"). */
  scale: number;
  /** Where the image's top-left corner is, in the viewport's px. */
  x: number;
  y: number;
}

/** As far as one can zoom in: 8 screen px per image px. */
export const MAX_SCALE = 8;
/** A margin around the photo when it is fitted. */
export const FIT_MARGIN = 16;

export function fitScale(image: Size, viewport: Size): number {
  const w = Math.max(1, viewport.width - 2 * FIT_MARGIN);
  const h = Math.max(1, viewport.height - 2 * FIT_MARGIN);
  // Never enlarged to fit: a small scan is shown at its own size, not blurred.
  return Math.min(1, w / image.width, h / image.height);
}

/** As far as one can zoom out: the whole photo in view. */
export function minScale(image: Size, viewport: Size): number {
  return fitScale(image, viewport);
}

export function fitView(image: Size, viewport: Size): View {
  return centred(fitScale(image, viewport), image, viewport);
}

function centred(scale: number, image: Size, viewport: Size): View {
  return { scale, x: (viewport.width - image.width * scale) / 2, y: (viewport.height - image.height * scale) / 2 };
}

/**
 * Keeps the photo where it can be seen: along an axis where it is smaller than the viewport it is
 * centred; where it is larger, no gap opens between its edge and the viewport's.
 */
export function clampView(v: View, image: Size, viewport: Size): View {
  const scale = Math.min(MAX_SCALE, Math.max(minScale(image, viewport), v.scale));
  const axis = (pos: number, imageLen: number, viewLen: number) => {
    const len = imageLen * scale;
    if (len <= viewLen) return (viewLen - len) / 2;
    return Math.min(0, Math.max(viewLen - len, pos));
  };
  return { scale, x: axis(v.x, image.width, viewport.width), y: axis(v.y, image.height, viewport.height) };
}

/** Zooms to `scale`, keeping the image point under `at` (viewport px) where it is. */
export function zoomTo(v: View, scale: number, at: { x: number; y: number }, image: Size, viewport: Size): View {
  const next = Math.min(MAX_SCALE, Math.max(minScale(image, viewport), scale));
  const ix = (at.x - v.x) / v.scale;
  const iy = (at.y - v.y) / v.scale;
  return clampView({ scale: next, x: at.x - ix * next, y: at.y - iy * next }, image, viewport);
}

export function panBy(v: View, dx: number, dy: number, image: Size, viewport: Size): View {
  return clampView({ ...v, x: v.x + dx, y: v.y + dy }, image, viewport);
}

/** The image point under a viewport point. */
export function toImage(v: View, at: { x: number; y: number }): { x: number; y: number } {
  return { x: (at.x - v.x) / v.scale, y: (at.y - v.y) / v.scale };
}

// ------------------------------------------------------------------------------- pyramid

export type PyramidInfo = DeepZoomInfo;
export { levelSize };

/** The coarsest level that still has at least one of its pixels per device pixel on screen. */
export function levelFor(p: PyramidInfo, scale: number, devicePixelRatio = 1): number {
  const want = scale * devicePixelRatio;
  for (let level = 0; level < p.levels; level++) if (levelSize(p, level).width / p.width >= want) return level;
  return p.levels - 1;
}

export interface TilePlacement {
  level: number;
  col: number;
  row: number;
  /** Where the tile's image goes, in image px (its overlap included). */
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The tiles of `level` that cover what is in the viewport (plus `marginTiles` around it). */
export function tilesInView(p: PyramidInfo, level: number, v: View, viewport: Size, marginTiles = 0): TilePlacement[] {
  const size = levelSize(p, level);
  const fx = p.width / size.width;
  const fy = p.height / size.height;
  const { cols, rows } = levelGrid(p, level);
  // The viewport in level px.
  const from = toImage(v, { x: 0, y: 0 });
  const to = toImage(v, { x: viewport.width, y: viewport.height });
  const c0 = Math.max(0, Math.floor(from.x / fx / p.tileSize) - marginTiles);
  const r0 = Math.max(0, Math.floor(from.y / fy / p.tileSize) - marginTiles);
  const c1 = Math.min(cols - 1, Math.floor(to.x / fx / p.tileSize) + marginTiles);
  const r1 = Math.min(rows - 1, Math.floor(to.y / fy / p.tileSize) + marginTiles);
  const out: TilePlacement[] = [];
  for (let row = r0; row <= r1; row++) {
    for (let col = c0; col <= c1; col++) {
      const r = tileRect(p, level, col, row)!;
      out.push({ level, col, row, left: r.left * fx, top: r.top * fy, width: r.width * fx, height: r.height * fy });
    }
  }
  return out;
}
