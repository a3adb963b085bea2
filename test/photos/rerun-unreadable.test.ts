/**
 * Issue 32, item 12: OCR or analysis sent to many photos skips those whose file could not be read
 * as an image, and counts them, instead of queueing a job each that fails with a decoder error.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { openTestCore, tempDir } from '../support/core';
import { importSettled, writeTestJpeg } from '../support/import-settled';

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

describe('bulk OCR and analysis', () => {
  it('skip unreadable photos with a count; metadata is still re-run for them', async () => {
    const dir = tempDir('circa-unreadable-');
    await writeTestJpeg(path.join(dir, 'good.jpg'), '#806040');
    fs.writeFileSync(path.join(dir, 'broken.jpg'), Buffer.from('this is not a JPEG at all, only text with a .jpg name'));
    core = openTestCore();
    await importSettled(core, dir);
    const photos = core.photos.list({ sort: 'filename', filter: 'all', limit: 5 }).items;
    const broken = photos.find((p) => p.filename === 'broken.jpg')!;
    expect(broken.metadataStatus).toBe('failed');
    const ids = photos.map((p) => p.id);

    for (const type of ['ocr', 'ai_analysis'] as const) {
      const r = await core.dispatch('photos.rerun', { ids, type });
      expect(r, type).toEqual({ ok: true, value: { created: 1, alreadyActive: 0, unreadable: 1 } });
      expect(core.jobs.list({ subject: `photo:${broken.id}`, types: [type], limit: 5 }).items, type).toEqual([]);
    }
    const again = await core.dispatch('photos.rerun', { ids: [broken.id], type: 'metadata' });
    expect(again).toEqual({ ok: true, value: { created: 1, alreadyActive: 0, unreadable: 0 } });
  });
});
