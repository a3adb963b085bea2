/**
 * Deep Zoom's geometry, in one place: how many levels a picture has, each level's size, and which
 * rectangle of a level one tile covers. The worker's pyramid (libvips dzsave writes this layout),
 * main's tile cutter (which cuts a tile straight from the original before the pyramid exists) and
 * the renderer's viewer (which asks for the tiles in view) must agree to the pixel, so they all
 * read it from here.
 */

export interface DeepZoomSize {
  width: number;
  height: number;
}

export interface DeepZoomInfo extends DeepZoomSize {
  tileSize: number;
  overlap: number;
  /** Levels 0 … levels−1; the last is full resolution, each one before it half the size. */
  levels: number;
}

/** Levels of a `depth: onetile` pyramid: halve until the image fits one tile. */
export function deepZoomLevels(width: number, height: number, tileSize: number): number {
  let levels = 1;
  for (let w = width, h = height; w > tileSize || h > tileSize; levels++) {
    w = Math.ceil(w / 2);
    h = Math.ceil(h / 2);
  }
  return levels;
}

/** How many full-resolution pixels one pixel of `level` stands for, along each axis. */
export function levelFactor(p: DeepZoomInfo, level: number): number {
  return 2 ** (p.levels - 1 - level);
}

/** A level's size in its own pixels (Deep Zoom: each halving rounds up). */
export function levelSize(p: DeepZoomInfo, level: number): DeepZoomSize {
  const k = levelFactor(p, level);
  return { width: Math.ceil(p.width / k), height: Math.ceil(p.height / k) };
}

/** Columns and rows of tiles in a level. */
export function levelGrid(p: DeepZoomInfo, level: number): { cols: number; rows: number } {
  const size = levelSize(p, level);
  return { cols: Math.ceil(size.width / p.tileSize), rows: Math.ceil(size.height / p.tileSize) };
}

/** A rectangle in one level's pixels. */
export interface LevelRect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * The rectangle of `level` that tile (col, row) holds: its own square plus `overlap` px into each
 * neighbour it has. Null for a tile the level does not have.
 */
export function tileRect(p: DeepZoomInfo, level: number, col: number, row: number): LevelRect | null {
  if (!Number.isInteger(level) || level < 0 || level >= p.levels) return null;
  const size = levelSize(p, level);
  const { cols, rows } = levelGrid(p, level);
  if (!Number.isInteger(col) || !Number.isInteger(row) || col < 0 || row < 0 || col >= cols || row >= rows) return null;
  const x0 = col * p.tileSize - (col > 0 ? p.overlap : 0);
  const y0 = row * p.tileSize - (row > 0 ? p.overlap : 0);
  const x1 = Math.min(size.width, (col + 1) * p.tileSize + (col < cols - 1 ? p.overlap : 0));
  const y1 = Math.min(size.height, (row + 1) * p.tileSize + (row < rows - 1 ? p.overlap : 0));
  return { left: x0, top: y0, width: x1 - x0, height: y1 - y0 };
}
