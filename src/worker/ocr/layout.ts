/**
 * Where on a print the picture is, and where its caption band, mount or margins are, measured from
 * the pixels before any OCR. A band of paper with writing on it is flat: most of each row is the
 * paper's own grey (ink covers a minority of it), so the row's grey levels spread little about
 * their median. A picture is textured: its rows spread widely. The picture area is the box of the
 * long runs of textured rows, narrowed to the textured columns within them; what lies outside it
 * is caption band, mount or margin.
 *
 * A strip inside the picture that is not paper but flat (a sign, a plate, a dark shadow) is part
 * of it when picture lies on both sides.
 *
 * OCR uses this twice: a date read on a line inside the picture is only a clue (texture, a sign in
 * the scene, a date stamp: not the archivist's caption; see src/main/dating/ocr-evidence.ts), and a
 * poor reading of a print with a caption band is read again with the picture painted over in the
 * paper's grey, so that a faint pencil caption is stretched against its own paper instead of
 * against the print's blacks.
 */
import type { OcrSource } from './preprocess';

export interface PixelBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface PrintLayout {
  /** Picture areas in the source's decoded pixels (at most a few; empty when none was found). */
  pictures: PixelBox[];
  /** Whether some flat paper (a caption band, mount or margin) lies beside a picture. */
  captionBand: boolean;
}

/** A run of textured rows or columns shorter than this share of the side is not a picture. */
const MIN_PICTURE_SHARE = 0.12;
/** Flat rows this short (a share of the side) inside a picture are part of it (a horizon, a sky strip). */
const MAX_GAP_SHARE = 0.03;
/** Flat paper beside the picture at least this share of the side makes a band or margin. */
const MIN_BAND_SHARE = 0.04;
/**
 * A picture is at least this many pixels on each side: in a tiny scan (a caption strip 158×48)
 * a few bold letters make a "textured" block, and painting it over cut the caption.
 */
const MIN_PICTURE_PX = 96;
/** A row or column whose grey levels spread (median absolute deviation) more than this is textured. */
const MIN_TEXTURE = 8;
const MAX_TEXTURE = 20;

/** What one row or column says: is it mostly the paper's grey, and does it spread like a picture. */
interface LineStats {
  paper: boolean;
  textured: boolean;
}

/** Counts of grey levels of one row or column, reused between calls. */
const hist = new Uint32Array(256);

function lineStats(n: number, paper: number, tolerance: number, texture: number): LineStats {
  let near = 0;
  for (let v = Math.max(0, paper - tolerance); v <= Math.min(255, paper + tolerance); v++) near += hist[v];
  let seen = 0;
  let median = 255;
  for (let v = 0; v < 256; v++) {
    seen += hist[v];
    if (seen * 2 >= n) {
      median = v;
      break;
    }
  }
  // Median absolute deviation: the spread of the half of the line nearest its median.
  let within = hist[median];
  let d = 0;
  while (within * 2 < n && d < 255) {
    d++;
    within += (median - d >= 0 ? hist[median - d] : 0) + (median + d <= 255 ? hist[median + d] : 0);
  }
  return { paper: near * 2 >= n, textured: d > texture };
}

/**
 * Spans of lines that are not paper, short paper gaps bridged (a sign or a sky strip inside the
 * picture), kept when enough of their lines are textured: flat ink (a large letter, a solid
 * plate alone) is not a picture.
 */
function pictureSpans(stats: LineStats[], minTextured: number, maxGap: number): [number, number][] {
  const out: [number, number][] = [];
  let start = -1;
  let lastOn = -1;
  let textured = 0;
  const close = () => {
    if (start >= 0 && textured >= minTextured) out.push([start, lastOn + 1]);
  };
  for (let i = 0; i < stats.length; i++) {
    if (stats[i].paper) continue;
    if (start < 0 || i - lastOn - 1 > maxGap) {
      close();
      start = i;
      textured = 0;
    }
    lastOn = i;
    if (stats[i].textured) textured++;
  }
  close();
  return out;
}

/** Finds the picture areas and whether paper lies beside them. */
export function findPrintLayout(
  src: Pick<OcrSource, 'grey' | 'decodedWidth' | 'decodedHeight' | 'borderMedian' | 'borderNoise'>,
): PrintLayout {
  const { grey, decodedWidth: w, decodedHeight: h } = src;
  if (Math.min(w, h) < MIN_PICTURE_PX) return { pictures: [], captionBand: false };
  // Large scans are sampled: the measure needs rows and columns, not every pixel.
  const step = Math.max(1, Math.floor(Math.max(w, h) / 1000));
  // The paper's own grain sets how far from its grey is still paper, and how much spread is still flat
  // (clamped: a frame that is picture, as on a camera photo, has no grain to go by).
  const grain = 1.4826 * src.borderNoise;
  const tolerance = Math.round(Math.min(40, Math.max(12, 3 * grain)));
  const texture = Math.min(MAX_TEXTURE, Math.max(MIN_TEXTURE, 2.5 * src.borderNoise));
  const paper = src.borderMedian;
  const rows: LineStats[] = [];
  for (let y = 0; y < h; y += step) {
    hist.fill(0);
    let n = 0;
    for (let i = y * w, end = y * w + w; i < end; i += step, n++) hist[grey[i]]++;
    rows.push(lineStats(n, paper, tolerance, texture));
  }
  const pictures: PixelBox[] = [];
  const rowSpans = pictureSpans(rows, Math.ceil(rows.length * MIN_PICTURE_SHARE), Math.floor(rows.length * MAX_GAP_SHARE));
  for (const [r0, r1] of rowSpans) {
    // Every column's counts gathered row by row (reading the pixels in order), then summed up per column.
    const width = Math.ceil(w / step);
    const colHist = new Uint32Array(width * 256);
    for (let r = r0; r < r1; r++) {
      const row = r * step * w;
      for (let c = 0; c < width; c++) colHist[c * 256 + grey[row + c * step]]++;
    }
    const cols: LineStats[] = [];
    for (let c = 0; c < width; c++) {
      hist.set(colHist.subarray(c * 256, c * 256 + 256));
      cols.push(lineStats(r1 - r0, paper, tolerance, texture));
    }
    const colSpans = pictureSpans(cols, Math.ceil(cols.length * MIN_PICTURE_SHARE), Math.floor(cols.length * MAX_GAP_SHARE));
    if (!colSpans.length) continue;
    const x0 = colSpans[0][0] * step;
    const x1 = colSpans[colSpans.length - 1][1] * step;
    if (x1 - x0 < MIN_PICTURE_PX || (r1 - r0) * step < MIN_PICTURE_PX) continue;
    // Padded by the sampling step and a little more: a sliver of the picture's edge left beside the
    // band reads as a row of "|".
    const pad = 2 * step + 2;
    pictures.push({
      x0: Math.max(0, colSpans[0][0] * step - pad),
      x1: Math.min(w, colSpans[colSpans.length - 1][1] * step + pad),
      y0: Math.max(0, r0 * step - pad),
      y1: Math.min(h, r1 * step + pad),
    });
  }
  const captionBand = pictures.some(
    (p) =>
      p.y0 >= h * MIN_BAND_SHARE ||
      h - p.y1 >= h * MIN_BAND_SHARE ||
      p.x0 >= w * MIN_BAND_SHARE ||
      w - p.x1 >= w * MIN_BAND_SHARE,
  );
  return { pictures, captionBand };
}
