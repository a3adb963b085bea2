/**
 * Luma of decoded 8-bit pixels, and its mean over any rectangle, read from a summed-area table so
 * that many rectangles (the seven regions a photo is hashed over) cost one pass over the pixels.
 *
 * A grid cell's mean is an exact box filter: a cell that covers a pixel partly counts that part of
 * it (the table is bilinear inside each pixel). Cells on whole pixels only, as before, jitter by
 * a pixel on small images, and a resized copy of a 100-pixel scan then hashed several bits away.
 */

/** Rec. 601 luma × 256 in integers (77, 150, 29); grey images use their one value. Alpha is ignored. */
export class LumaPlane {
  readonly width: number;
  readonly height: number;
  /** luma × 256 per pixel, row-major. */
  readonly luma: Uint32Array;
  /** sat[(y) * (w + 1) + x] = Σ luma over [0, x) × [0, y). */
  private readonly sat: Float64Array;

  /**
   * @param scratch when given, the plane's arrays are taken from it (grown when too small) instead
   *   of allocated: a caller that makes one plane per photo and drops it before the next (the
   *   metadata job) saves ~2.4 MB of zeroed memory per 512-px thumbnail. Such a plane is valid
   *   only until the scratch is used again.
   */
  constructor(data: Uint8Array, width: number, height: number, channels: number, scratch?: LumaScratch) {
    if (!(width >= 1 && height >= 1 && channels >= 1 && channels <= 4) || data.length < width * height * channels) {
      throw new Error(`phash needs ${width}×${height}×${channels} pixel values, got ${data.length}`);
    }
    this.width = width;
    this.height = height;
    const stride = width + 1;
    // Locals, not fields, in the loops: V8 reloads a field on every pixel here (2.3 → 1.0 ms for
    // a 512 × 384 thumbnail, paid on every photo imported). One loop per kind of pixel, so the
    // inner loop carries no branch.
    const luma = (this.luma = scratch ? scratch.luma(width * height) : new Uint32Array(width * height));
    const sat = (this.sat = scratch ? scratch.sat(stride * (height + 1)) : new Float64Array(stride * (height + 1)));
    if (scratch) {
      // A reused table: its first row and first column must read zero, as a new one does.
      sat.fill(0, 0, stride);
      for (let y = 1; y <= height; y++) sat[y * stride] = 0;
    }
    if (channels >= 3) {
      for (let y = 0, p = 0, i = 0; y < height; y++) {
        const above = y * stride + 1;
        const here = above + stride;
        let row = 0;
        for (let x = 0; x < width; x++, p += channels, i++) {
          const v = 77 * data[p] + 150 * data[p + 1] + 29 * data[p + 2];
          luma[i] = v;
          row += v;
          sat[here + x] = sat[above + x] + row;
        }
      }
    } else {
      for (let y = 0, p = 0, i = 0; y < height; y++) {
        const above = y * stride + 1;
        const here = above + stride;
        let row = 0;
        for (let x = 0; x < width; x++, p += channels, i++) {
          const v = 256 * data[p];
          luma[i] = v;
          row += v;
          sat[here + x] = sat[above + x] + row;
        }
      }
    }
  }

  /** Σ luma over [0, x) × [0, y) for fractional x, y (bilinear inside a pixel: exact for a box filter). */
  private integral(x: number, y: number): number {
    const stride = this.width + 1;
    const x0 = Math.min(Math.floor(x), this.width - 1);
    const y0 = Math.min(Math.floor(y), this.height - 1);
    const fx = x - x0;
    const fy = y - y0;
    const i = y0 * stride + x0;
    const a = this.sat[i];
    const b = this.sat[i + 1];
    const c = this.sat[i + stride];
    const d = this.sat[i + stride + 1];
    return a + fx * (b - a) + fy * (c - a) + fx * fy * (d - b - c + a);
  }

  /** The n×n grid of mean luma (0–255) over the rectangle [x0, x1) × [y0, y1), row-major. */
  grid(n: number, x0 = 0, y0 = 0, x1 = this.width, y1 = this.height): Float64Array {
    const xs = new Float64Array(n + 1);
    const ys = new Float64Array(n + 1);
    for (let i = 0; i <= n; i++) {
      xs[i] = x0 + ((x1 - x0) * i) / n;
      ys[i] = y0 + ((y1 - y0) * i) / n;
    }
    const corner = new Float64Array((n + 1) * (n + 1));
    for (let r = 0; r <= n; r++) for (let c = 0; c <= n; c++) corner[r * (n + 1) + c] = this.integral(xs[c], ys[r]);
    const cellArea = ((x1 - x0) / n) * ((y1 - y0) / n) * 256;
    const out = new Float64Array(n * n);
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        const i = r * (n + 1) + c;
        out[r * n + c] = (corner[i + n + 2] - corner[i + 1] - corner[i + n + 1] + corner[i]) / cellArea;
      }
    }
    return out;
  }
}

/** Arrays a LumaPlane may reuse from one image to the next (see its constructor). */
export class LumaScratch {
  private lumaBuf = new Uint32Array(0);
  private satBuf = new Float64Array(0);

  luma(n: number): Uint32Array {
    if (this.lumaBuf.length < n) this.lumaBuf = new Uint32Array(n);
    return this.lumaBuf.subarray(0, n);
  }

  sat(n: number): Float64Array {
    if (this.satBuf.length < n) this.satBuf = new Float64Array(n);
    return this.satBuf.subarray(0, n);
  }
}
