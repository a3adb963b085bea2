// OCR reads the languages the library chose (Settings → Text recognition), through the real job
// path: main's load hands the setting to the worker, tesseract loads eng+fra from the packaged
// data. A French caption's accents are read only when French is chosen, and with them its month.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { openTestCore, tempDir, waitFor, waitForStatus } from '../support/core';
import { renderCaption } from '../support/caption-images';

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

it('reads a French caption’s accented words, and its month, only with French chosen', async () => {
  const dir = tempDir('circa-ocr-lang-');
  const file = path.join(dir, 'noel.png');
  fs.writeFileSync(file, await renderCaption('Fête de Noël à Besançon, août 1947', { size: 40 }));
  core = openTestCore();
  const c = core;
  expect(c.settings.get().ocrLanguages).toEqual(['eng']);
  c.importer.start([file]);
  const photo = await waitFor(() => c.photos.list({ sort: 'imported', filter: 'all', limit: 1 }).items[0], 30_000, 'photo row');
  await waitFor(() => c.photos.get(photo.id)?.metadata_status !== 'pending', 60_000, 'metadata');

  const read = async () => {
    const { job } = c.jobs.enqueue({ type: 'ocr', payload: { photoId: photo.id } });
    expect((await waitForStatus(c, job.id, ['success', 'failed', 'cancelled'], 120_000)).status).toBe('success');
    const dates = c.evidenceService
      .list(photo.id, false)
      .items.filter((i) => i.source === 'ocr')
      .map((i) => [i.earliest, i.latest]);
    return { text: c.photos.get(photo.id)!.ocr_text, dates };
  };
  const english = await read();
  expect(english.text).not.toContain('août');
  expect(english.text).not.toContain('Noël');
  expect(english.dates).not.toContainEqual([19470801, 19470831]);

  c.settings.update({ ocrLanguages: ['eng', 'fra'] });
  const french = await read();
  expect(french.text).toContain('Fête de Noël');
  expect(french.text).toContain('août 1947');
  expect(french.dates).toContainEqual([19470801, 19470831]);
});

it('refuses, through the contract, a choice OCR cannot use: no language, an unknown one, or one twice', async () => {
  core = openTestCore({ runJobs: false });
  const c = core;
  for (const bad of [[], ['klingon'], ['eng', 'eng']]) {
    const r = await c.dispatch('settings.update', { ocrLanguages: bad });
    expect(r).toMatchObject({ ok: false });
  }
  expect(c.settings.get().ocrLanguages).toEqual(['eng']);
  expect(await c.dispatch('settings.update', { ocrLanguages: ['eng', 'deu'] })).toMatchObject({ ok: true });
  expect(c.settings.get().ocrLanguages).toEqual(['eng', 'deu']);
});
