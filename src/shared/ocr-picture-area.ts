/**
 * Whether a line OCR read lies inside a print's picture area (found by the worker from the
 * pixels: src/worker/ocr/layout.ts) rather than on its caption band, mount or margin. Text read
 * there is texture, a sign in the scene or a date stamp, not the archivist's caption: its dates are
 * only clues (src/main/dating/ocr-evidence.ts).
 */
export interface AreaBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A line with at least this share of its box inside a picture area is read inside the picture. */
export const INSIDE_PICTURE_SHARE = 0.5;

/** The share of `box`'s area that lies inside any of `areas` (boxes in one space, not overlapping). */
export function shareInside(box: AreaBox, areas: readonly AreaBox[]): number {
  const area = Math.max(1, (box.x1 - box.x0) * (box.y1 - box.y0));
  let inside = 0;
  for (const a of areas) {
    const wx = Math.min(box.x1, a.x1) - Math.max(box.x0, a.x0);
    const wy = Math.min(box.y1, a.y1) - Math.max(box.y0, a.y0);
    if (wx > 0 && wy > 0) inside += wx * wy;
  }
  return Math.min(1, inside / area);
}

export function insidePictureArea(box: AreaBox, areas: readonly AreaBox[] | undefined): boolean {
  return !!areas?.length && shareInside(box, areas) >= INSIDE_PICTURE_SHARE;
}
