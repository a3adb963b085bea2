import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermanentJobError } from '../../shared/jobs/errors';
import { renderCaption, type CaptionFont } from '../../../test/support/caption-images';
import {
  createOcrEngine,
  initialOcrScale,
  loadOcrSource,
  ocrResultSchema,
  renderVariant,
  toSourceBox,
  type OcrEngine,
} from './index';

let dir: string;
let n = 0;
async function save(buf: Buffer, ext = 'png'): Promise<string> {
  const file = path.join(dir, `img-${++n}.${ext}`);
  await fs.writeFile(file, buf);
  return file;
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'circa-ocr-'));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** OCR noise tolerance: compare lower-cased text with O/0 and l/1 confusions folded. */
function fold(s: string): string {
  return s.toLowerCase().replace(/[o]/g, '0').replace(/[il|]/g, '1');
}

describe('OCR of printed captions', () => {
  let engine: OcrEngine;
  beforeAll(() => {
    engine = createOcrEngine();
  });
  afterAll(async () => {
    await engine.terminate();
  });

  const cases: { font: CaptionFont; size: number; text: string; year: string; word: string }[] = [
    { font: 'DejaVu Sans', size: 26, text: 'Grandma and Joe, Xmas 1942', year: '1942', word: 'grandma' },
    { font: 'DejaVu Serif', size: 26, text: 'JUN 12 1947', year: '1947', word: 'jun' },
    { font: 'DejaVu Sans Mono', size: 26, text: 'Grandma and Joe, Xmas 1942', year: '1942', word: 'xmas' },
    { font: 'DejaVu Sans', size: 56, text: 'JUN 12 1947', year: '1947', word: 'jun' },
    { font: 'DejaVu Serif', size: 56, text: 'Grandma and Joe, Xmas 1942', year: '1942', word: 'grandma' },
    { font: 'DejaVu Sans Mono', size: 56, text: 'JUN 12 1947', year: '1947', word: 'jun' },
  ];

  it.each(cases)('$font $size px: "$text"', async ({ font, size, text, year, word }) => {
    const file = await save(await renderCaption(text, { font, size }));
    const res = await engine.recognize(file);
    expect(ocrResultSchema.parse(res)).toEqual(res);
    expect(res.text).toContain(year);
    expect(fold(res.text)).toContain(fold(word));
    expect(res.lines.length).toBeGreaterThan(0);
    expect(res.confidence).toBeGreaterThan(50);
  });

  it('reads a slightly rotated caption on a sepia card', async () => {
    const file = await save(
      await renderCaption('Grandma and Joe, Xmas 1942', { font: 'DejaVu Serif', size: 40, rotateDeg: 2, background: 'sepia' }),
    );
    const res = await engine.recognize(file);
    expect(res.text).toContain('1942');
    expect(fold(res.text)).toContain(fold('grandma'));
  });

  it('upscales a small scan and maps line boxes back to original pixels', async () => {
    const png = await renderCaption('JUN 12 1947', { font: 'DejaVu Sans', size: 20, width: 240, height: 60 });
    // Small text: the first reading finds small lines and the engine reads again upscaled.
    const file = await save(png);
    const res = await engine.recognize(file);
    expect(res.width).toBe(240);
    expect(res.height).toBe(60);
    expect(res.text).toContain('1947');
    for (const line of res.lines) {
      expect(line.text).toBe(line.text.trim());
      expect(line.text.length).toBeGreaterThan(0);
      expect(line.bbox.x0).toBeGreaterThanOrEqual(0);
      expect(line.bbox.x1).toBeLessThanOrEqual(240);
      expect(line.bbox.y1).toBeLessThanOrEqual(60);
      expect(line.bbox.x1).toBeGreaterThan(line.bbox.x0);
    }
    expect(res.text.split('\n').every((l) => l.trim().length > 0)).toBe(true);
  });

  it('returns empty text and zero confidence for a blank image', async () => {
    const file = await save(
      await sharp({ create: { width: 200, height: 80, channels: 3, background: '#ffffff' } })
        .png()
        .toBuffer(),
    );
    const res = await engine.recognize(file);
    expect(res.text).toBe('');
    expect(res.lines).toEqual([]);
    expect(res.confidence).toBe(0);
  });
});

describe('OCR engine lifecycle', () => {
  it('reuses one tesseract worker, and an abort kills it and the next call recreates it', async () => {
    const engine = createOcrEngine();
    try {
      const file = await save(await renderCaption('JUN 12 1947', { font: 'DejaVu Sans', size: 40 }));
      const progress: number[] = [];
      const a = await engine.recognize(file, { onProgress: (f) => progress.push(f) });
      const b = await engine.recognize(file);
      expect(a.text).toContain('1947');
      expect(b.text).toBe(a.text);
      expect(engine.stats()).toMatchObject({ workersCreated: 1, recognitions: 2, workersTerminated: 0, workerAlive: true });
      expect(progress.at(-1)).toBe(1);
      expect([...progress].sort((x, y) => x - y)).toEqual(progress);

      // Abort from inside the first progress report: the recognition is then certainly on the worker.
      const ctrl = new AbortController();
      const aborted = engine.recognize(file, { signal: ctrl.signal, onProgress: () => ctrl.abort() });
      await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
      expect(engine.stats()).toMatchObject({ workersCreated: 1, workersTerminated: 1, workerAlive: false, recognitions: 2 });

      const c = await engine.recognize(file);
      expect(c.text).toContain('1947');
      expect(engine.stats()).toMatchObject({ workersCreated: 2, recognitions: 3, workerAlive: true });
    } finally {
      await engine.terminate();
    }
  });

  it('rejects an already-aborted call without starting a worker', async () => {
    const engine = createOcrEngine();
    const file = await save(await renderCaption('1942', { size: 30 }));
    const ctrl = new AbortController();
    ctrl.abort();
    await expect(engine.recognize(file, { signal: ctrl.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(engine.stats()).toMatchObject({ workersCreated: 0, workerAlive: false });
  });

  it('fails (instead of hanging) when the language data is missing or corrupt', async () => {
    const file = await save(await renderCaption('1942', { size: 30 }));
    const missing = createOcrEngine({ langPath: path.join(dir, 'no-such-tessdata') });
    await expect(missing.recognize(file)).rejects.toThrow(/Tesseract language data not found/);
    expect(missing.stats().workerAlive).toBe(false);

    const corruptDir = path.join(dir, 'corrupt-tessdata');
    await fs.mkdir(corruptDir);
    await fs.writeFile(path.join(corruptDir, 'eng.traineddata.gz'), Buffer.alloc(4096, 7));
    const corrupt = createOcrEngine({ langPath: corruptDir });
    try {
      await expect(corrupt.recognize(file)).rejects.toThrow(/Tesseract language data is corrupt/);
      expect(corrupt.stats().workerAlive).toBe(false);
    } finally {
      await corrupt.terminate();
    }
  });

  it('fails permanently on an undecodable file and retryably on a missing one', async () => {
    const engine = createOcrEngine();
    const bad = await save(Buffer.from('this is not an image'), 'jpg');
    await expect(engine.recognize(bad)).rejects.toBeInstanceOf(PermanentJobError);
    const missing = path.join(dir, 'missing.png');
    const err = await engine.recognize(missing).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(PermanentJobError);
    expect((err as Error).message).toMatch(/ENOENT/);
    expect(engine.stats().workersCreated).toBe(0);
  });
});

describe('OCR preprocessing', () => {
  it('decodes once with EXIF orientation, greyscale, and notes the page colour', async () => {
    // 300x100 pixels stored, EXIF orientation 6 (rotate 90° CW) → displayed 100x300.
    const jpg = await sharp({ create: { width: 300, height: 100, channels: 3, background: '#c08040' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const src = await loadOcrSource(await save(jpg, 'jpg'));
    expect([src.width, src.height]).toEqual([100, 300]);
    expect([src.decodedWidth, src.decodedHeight]).toEqual([100, 300]);
    expect(src.grey.length).toBe(100 * 300);
    expect(src.borderMedian).toBeGreaterThan(100);
    expect(src.borderMedian).toBeLessThan(160);

    const page = await loadOcrSource(await save(await renderCaption('1942', { size: 30, background: 'sepia' })));
    expect(page.borderMedian).toBeGreaterThan(180);
  });

  it('renders a variant at its scale as a greyscale PNG, faint grey paper turned white', async () => {
    // Grey ink (#707070) on grey paper (#a0a0a0): the paper's grey becomes white, the ink dark.
    const png = await sharp({ create: { width: 200, height: 100, channels: 3, background: '#a0a0a0' } })
      .composite([{ input: { create: { width: 40, height: 20, channels: 3, background: '#707070' } }, left: 80, top: 40 }])
      .png()
      .toBuffer();
    const src = await loadOcrSource(await save(png));
    const r = await renderVariant(src, { scale: 2, contrast: 'paper', denoise: 0 });
    expect([r.width, r.height]).toEqual([400, 200]);
    expect((await sharp(r.png).metadata()).channels).toBe(1);
    const { data, info } = await sharp(r.png).raw().toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(245); // paper
    expect(data[(100 * 400 + 200) * info.channels]).toBeLessThan(20); // ink
    const local = await renderVariant(src, { scale: 1, contrast: 'local', denoise: 1 });
    expect([local.width, local.height]).toEqual([200, 100]);
  });

  it('maps a box found in a scaled variant back to the source pixels', () => {
    const box = toSourceBox(
      { x0: 240, y0: 80, x1: 281, y1: 121 },
      { scale: 2, contrast: 'paper', denoise: 0 },
      { width: 200, height: 100 },
    );
    expect(box).toEqual({ x0: 120, y0: 40, x1: 141, y1: 61 });
    expect(
      toSourceBox({ x0: -5, y0: 0, x1: 999, y1: 999 }, { scale: 2, contrast: 'paper', denoise: 0 }, { width: 200, height: 100 }),
    ).toEqual({
      x0: 0,
      y0: 0,
      x1: 200,
      y1: 100,
    });
  });

  it('chooses a first scale: keep the scan, upscale tiny images, cap huge ones', () => {
    expect(initialOcrScale(250, 120)).toBe(2);
    expect(initialOcrScale(800, 600)).toBe(1);
    expect(initialOcrScale(3000, 2000)).toBe(1);
    expect(initialOcrScale(8000, 6000)).toBe(0.5);
    expect(initialOcrScale(3000, 250)).toBeCloseTo(4000 / 3000);
  });
});
