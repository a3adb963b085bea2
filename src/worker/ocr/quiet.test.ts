/**
 * OCR on images that cannot hold text, and Tesseract's own diagnostics: neither may reach the
 * archivist as a raw decoder error or as chatter on the terminal (issue 32, item 14).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOcrEngine, type OcrEngine } from './index';

const run = promisify(execFile);
const CHILD = path.resolve(__dirname, '../../../test/support/tesseract-chatter-child.ts');

let dir: string;
let engine: OcrEngine;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'circa-ocr-quiet-'));
  engine = createOcrEngine();
});
afterAll(async () => {
  await engine.terminate();
  await fs.rm(dir, { recursive: true, force: true });
});

describe('OCR of images too small to hold text', () => {
  it.each([
    [1, 1],
    [8, 3],
    [2, 40],
    [40, 2],
    [9, 300],
  ])('%i × %i px: no text, no error', async (width, height) => {
    const file = path.join(dir, `strip-${width}x${height}.png`);
    await sharp({ create: { width, height, channels: 3, background: '#000' } })
      .png()
      .toFile(file);
    const progress: number[] = [];
    const res = await engine.recognize(file, { onProgress: (p) => progress.push(p) });
    expect(res).toMatchObject({ text: '', confidence: 0, lines: [], width, height, method: 'too small to hold text' });
    expect(progress.at(-1)).toBe(1);
  });

  it('still reads an image just large enough', async () => {
    const file = path.join(dir, 'strip-10x10.png');
    await sharp({ create: { width: 10, height: 10, channels: 3, background: '#fff' } })
      .png()
      .toFile(file);
    const res = await engine.recognize(file);
    expect(res.method).not.toBe('too small to hold text');
    expect(res.attempts).toBeGreaterThanOrEqual(1);
  });
});

describe("Tesseract's diagnostics", () => {
  const read = (which: 'plain' | 'circa') =>
    run(process.execPath, ['--import', 'tsx', CHILD, which], { cwd: path.resolve(__dirname, '../../..') });

  it('stay off the terminal with the worker the engine makes', async () => {
    // The same input on a plain worker shows the chatter is real. Which of Tesseract's lines gets
    // out before the child ends varies (a worker thread's stderr is forwarded asynchronously), so
    // the control asks for either; the quiet worker must print neither.
    const plain = await read('plain');
    expect(plain.stderr).toMatch(/Image too small to scale!!|Invalid resolution/);
    const circa = await read('circa');
    expect(circa.stdout).toContain('read ""');
    expect(circa.stderr).toBe('');
  }, 60_000);
});
