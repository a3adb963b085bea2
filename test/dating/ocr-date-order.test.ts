// OCR reads a numeric date by the library's order (Settings → numeric dates), through the real
// job path: main's load hands the setting to the worker, tesseract reads the caption.
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

it('reads 7/4/1906 on a print day first when the library says so, month first when it says that', async () => {
  const dir = tempDir('circa-ocr-order-');
  const file = path.join(dir, 'stamp.png');
  fs.writeFileSync(file, await renderCaption('Stamped 7/4/1906', { size: 48 }));
  core = openTestCore();
  const c = core;
  c.importer.start([file]);
  const photo = await waitFor(() => c.photos.list({ sort: 'imported', filter: 'all', limit: 1 }).items[0], 30_000, 'photo row');
  await waitFor(() => c.photos.get(photo.id)?.metadata_status !== 'pending', 60_000, 'metadata');

  const ocrDates = async () => {
    const { job } = c.jobs.enqueue({ type: 'ocr', payload: { photoId: photo.id } });
    expect((await waitForStatus(c, job.id, ['success', 'failed', 'cancelled'], 120_000)).status).toBe('success');
    return c.evidenceService
      .list(photo.id, false)
      .items.filter((i) => i.source === 'ocr')
      .map((i) => [i.earliest, i.latest]);
  };
  c.settings.update({ numericDateOrder: 'day-first' });
  expect(await ocrDates()).toEqual([[19060407, 19060407]]);
  c.settings.update({ numericDateOrder: 'month-first' });
  expect(await ocrDates()).toEqual([[19060704, 19060704]]);
});
