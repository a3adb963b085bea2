import { describe, expect, it } from 'vitest';
import {
  MAX_SCALE,
  clampView,
  fitView,
  levelFor,
  levelSize,
  panBy,
  tilesInView,
  toImage,
  zoomTo,
  type PyramidInfo,
} from './zoom';

const viewport = { width: 1000, height: 800 };
const scan = { width: 20_000, height: 20_000 };

describe('fit, zoom and pan', () => {
  it('fits a large scan inside the viewport, centred with a margin, and never enlarges a small one', () => {
    const v = fitView(scan, viewport);
    expect(v.scale).toBeCloseTo(768 / 20_000);
    expect(v.y).toBeCloseTo(16);
    expect(v.x).toBeCloseTo((1000 - 768) / 2);
    expect(fitView({ width: 300, height: 200 }, viewport)).toEqual({ scale: 1, x: 350, y: 300 });
  });

  it('zooms about the pointer: the image point under it stays under it', () => {
    const v = fitView(scan, viewport);
    const at = { x: 600, y: 500 };
    const before = toImage(v, at);
    const z = zoomTo(v, 1, at, scan, viewport);
    expect(z.scale).toBe(1);
    const after = toImage(z, at);
    expect(after.x).toBeCloseTo(before.x);
    expect(after.y).toBeCloseTo(before.y);
  });

  it('clamps the scale to [fit, 8×] and keeps the image against the viewport edges when panning', () => {
    const v = fitView(scan, viewport);
    expect(zoomTo(v, 1000, { x: 0, y: 0 }, scan, viewport).scale).toBe(MAX_SCALE);
    expect(zoomTo(v, 0.0001, { x: 0, y: 0 }, scan, viewport).scale).toBeCloseTo(v.scale);
    const oneToOne = zoomTo(v, 1, { x: 500, y: 400 }, scan, viewport);
    const farLeft = panBy(oneToOne, 1e6, 0, scan, viewport);
    expect(farLeft.x).toBe(0);
    const farRight = panBy(oneToOne, -1e6, 0, scan, viewport);
    expect(farRight.x).toBe(1000 - 20_000);
    // Smaller than the viewport along an axis: centred there (a panorama, zoomed in a little).
    const panorama = { width: 20_000, height: 5_000 };
    const c = clampView({ scale: 0.1, x: -50, y: 900 }, panorama, viewport);
    expect(c.y).toBeCloseTo((800 - 500) / 2);
    expect(c.x).toBe(-50);
  });
});

describe('pyramid levels and tiles', () => {
  const p: PyramidInfo = { ...scan, tileSize: 512, overlap: 1, levels: 7 };

  it('halves per level, rounding up', () => {
    expect(levelSize(p, 6)).toEqual(scan);
    expect(levelSize(p, 5)).toEqual({ width: 10_000, height: 10_000 });
    expect(levelSize(p, 0)).toEqual({ width: 313, height: 313 });
  });

  it('picks the coarsest level with a pixel per device pixel', () => {
    expect(levelFor(p, 1)).toBe(6);
    expect(levelFor(p, 0.5)).toBe(5);
    expect(levelFor(p, 0.3)).toBe(5);
    expect(levelFor(p, 0.01)).toBe(0);
    expect(levelFor(p, 0.5, 2)).toBe(6);
  });

  it('asks for the few tiles in view, not the 1,600 of the full level', () => {
    const v = zoomTo(fitView(scan, viewport), 1, { x: 500, y: 400 }, scan, viewport);
    const tiles = tilesInView(p, 6, v, viewport);
    expect(tiles.length).toBeLessThanOrEqual(3 * 4);
    expect(tiles.length).toBeGreaterThanOrEqual(2 * 2);
    // Together they cover the viewport.
    const from = toImage(v, { x: 0, y: 0 });
    const to = toImage(v, { x: 1000, y: 800 });
    expect(Math.min(...tiles.map((t) => t.left))).toBeLessThanOrEqual(from.x);
    expect(Math.max(...tiles.map((t) => t.left + t.width))).toBeGreaterThanOrEqual(to.x);
    expect(Math.min(...tiles.map((t) => t.top))).toBeLessThanOrEqual(from.y);
    expect(Math.max(...tiles.map((t) => t.top + t.height))).toBeGreaterThanOrEqual(to.y);
  });

  it('places inner tiles one overlap pixel into their neighbours, and edge tiles at the edge', () => {
    const whole = fitView({ width: 1200, height: 700 }, { width: 2000, height: 2000 });
    const small: PyramidInfo = { width: 1200, height: 700, tileSize: 512, overlap: 1, levels: 4 };
    const tiles = tilesInView(small, 3, whole, { width: 2000, height: 2000 });
    expect(tiles).toHaveLength(3 * 2);
    const at = (c: number, r: number) => tiles.find((t) => t.col === c && t.row === r)!;
    expect(at(0, 0)).toMatchObject({ left: 0, top: 0, width: 513, height: 513 });
    expect(at(1, 0)).toMatchObject({ left: 511, width: 514 });
    expect(at(2, 1)).toMatchObject({ left: 1023, top: 511, width: 177, height: 189 });
  });
});
