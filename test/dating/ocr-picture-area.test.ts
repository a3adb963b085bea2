/**
 * OCR tells a print's picture from its caption band (issue 28 item 3), through the real job path:
 * rendered prints imported, real Tesseract in a worker, main's evidence and estimate.
 *  - a date read inside the picture area (a sign in the scene) is only a clue: the photo stays undated;
 *  - the same words on the caption band below date it;
 *  - a light-grey pencil caption beside a dark print, which read as no text before, is read by the
 *    caption band's own contrast pass.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { isClue } from '../../src/shared/dating';
import { openTestCore, tempDir, waitFor, waitForStatus } from '../support/core';
import { renderPictureWithCaption, type PictureCaptionOptions } from '../support/picture-with-caption';

let core: Core;
let dir: string;
beforeAll(() => {
  dir = tempDir('circa-ocr-picture-');
  core = openTestCore();
});
afterAll(async () => {
  await core.close();
});

/** Imports one rendered print, runs OCR on it, and returns what it read and the evidence it gave. */
async function ocrPrint(name: string, o: PictureCaptionOptions) {
  const file = path.join(dir, `${name}.png`);
  fs.writeFileSync(file, await renderPictureWithCaption(o));
  core.importer.start([file]);
  const photo = await waitFor(
    () => core.photos.list({ sort: 'imported', filter: 'all', limit: 50 }).items.find((p) => p.filename === `${name}.png`),
    30_000,
    'photo row',
  );
  await waitFor(() => core.photos.get(photo.id)?.metadata_status !== 'pending', 60_000, 'metadata');
  const { job } = core.jobs.enqueue({ type: 'ocr', payload: { photoId: photo.id } });
  expect((await waitForStatus(core, job.id, ['success', 'failed', 'cancelled'], 180_000)).status).toBe('success');
  const ocr = core.evidenceService.list(photo.id, false).items.filter((i) => i.source === 'ocr');
  return { text: core.photos.get(photo.id)!.ocr_text, ocr, row: core.photos.get(photo.id)! };
}

const CAPTION = 'Aunt Edith, Easter 1947';
/** Easter Sunday 1947 and the fortnight after it (how Circa reads an Easter caption). */
const EASTER_1947 = [19470330, 19470413];

describe('OCR on a print: picture area and caption band', () => {
  it('a date read inside the picture is only a clue, marked as such; the photo stays undated', async () => {
    const { text, ocr, row } = await ocrPrint('sign-in-picture', { text: CAPTION, where: 'picture', seed: 3 });
    expect(text).toContain('Easter 1947');
    const easter = ocr.filter((e) => [e.earliest, e.latest].join() === EASTER_1947.join());
    expect(easter).toHaveLength(1);
    expect(isClue({ ...easter[0], source: 'ocr', reviewStatus: 'pending' })).toBe(true);
    expect(easter[0].details).toMatchObject({ clue: expect.stringContaining('inside the picture area of the print') });
    expect(row.estimate_status).toBe('undated');
  }, 300_000);

  it('the same caption on the band below the picture dates the photo', async () => {
    const { text, ocr, row } = await ocrPrint('caption-band', { text: CAPTION, where: 'caption-band', seed: 3 });
    expect(text).toContain(CAPTION);
    const easter = ocr.filter((e) => [e.earliest, e.latest].join() === EASTER_1947.join());
    expect(easter).toHaveLength(1);
    expect(isClue({ ...easter[0], source: 'ocr', reviewStatus: 'pending' })).toBe(false);
    expect(easter[0].details).not.toHaveProperty('clue');
    expect(row.estimate_status).not.toBe('undated');
    expect([row.estimate_earliest, row.estimate_latest]).toEqual(EASTER_1947);
  }, 300_000);

  it('a light-grey pencil caption beside a dark print is read (the caption band’s contrast pass)', async () => {
    const { text, row } = await ocrPrint('pencil-caption', { text: CAPTION, where: 'caption-band', ink: '#c8c8c8', seed: 5 });
    expect(text).toContain(CAPTION);
    expect([row.estimate_earliest, row.estimate_latest]).toEqual(EASTER_1947);
  }, 300_000);
});
