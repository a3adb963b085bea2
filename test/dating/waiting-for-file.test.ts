/**
 * Issue 32, item 13: an analysis (or OCR) job on a photo whose file is missing does not retry
 * with ENOENT every 30 s, spending its attempts: it waits, without charge, saying what to do, and
 * runs as soon as Locate… relinks the photo.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { WAIT_FOR_FILE_MS } from '../../src/main/dating/waiting-for-file';
import { openTestCore, tempDir, waitFor, waitForStatus } from '../support/core';
import { importSettled, writeTestJpeg } from '../support/import-settled';

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

describe('a job on a missing file', () => {
  it('waits for the photo to be located, then runs', async () => {
    const dir = tempDir('circa-wait-');
    const file = path.join(dir, 'oma.jpg');
    await writeTestJpeg(file, '#a08060');
    core = openTestCore();
    await importSettled(core, dir);
    const photo = core.photos.list({ sort: 'imported', filter: 'all', limit: 5 }).items[0];

    // The file is moved away; the archivist asks for an analysis anyway.
    const elsewhere = tempDir('circa-moved-');
    fs.renameSync(file, path.join(elsewhere, 'oma.jpg'));
    const before = Date.now();
    const rerun = await core.dispatch('photos.rerun', { ids: [photo.id], type: 'ai_analysis' });
    expect(rerun).toMatchObject({ ok: true, value: { created: 1 } });
    const waiting = await waitFor(() => {
      const j = core!.jobs.list({ subject: `photo:${photo.id}`, types: ['ai_analysis'], limit: 5 }).items[0];
      return j?.status === 'queued' && j.errorMessage ? j : undefined;
    }, 30_000);
    expect(waiting.errorMessage).toMatch(/^Waiting for the file: oma\.jpg is not at .* any more\. Use Locate…/);
    expect(waiting.errorMessage).not.toMatch(/ENOENT/);
    expect(waiting.runAfter).toBeGreaterThanOrEqual(before + WAIT_FOR_FILE_MS - 1000);
    const row = core.jobs.queries.get(waiting.id)!;
    expect(row.retry_count).toBe(0);

    // Locate… relinks it: the waiting job runs at once and succeeds.
    core.locations.markMissingUnder(dir, new Set());
    const located = await core.dispatch('photos.locate', { path: elsewhere, photoIds: [photo.id] });
    expect(located.ok).toBe(true);
    const done = await waitForStatus(core, waiting.id, ['success', 'failed', 'cancelled'], 30_000);
    expect(done.status).toBe('success');
    expect(done.retry_count).toBe(0);
  });
});
