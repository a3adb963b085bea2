/**
 * History named in a caption becomes evidence, end to end (real core, real worker processes, real
 * Tesseract on a rendered caption): "V-E Day celebrations, London" dates the picture to 8 May 1945
 * with the catalogue entry's source in its details; the archivist can reject it, and a rerun does
 * not propose it again; an entry the archivist added is read the same way, is kept in the
 * library's settings, and is in every backup.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { OWN_HISTORY_KEY } from '../../src/main/dating/own-history-entries';
import { readBackupFolder } from '../../src/shared/node/backup-folder';
import { openTestCore, tempDir, waitFor, waitForStatus } from '../support/core';
import { renderCaption } from '../support/caption-images';
import { villageFete } from '../support/history-entries';

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

async function importCaption(c: Core, text: string): Promise<number> {
  const file = path.join(tempDir('circa-history-'), 'caption.png');
  fs.writeFileSync(file, await renderCaption(text, { size: 48 }));
  c.importer.start([file]);
  const photo = await waitFor(() => c.photos.list({ sort: 'imported', filter: 'all', limit: 1 }).items[0], 30_000, 'photo row');
  await waitFor(() => c.photos.get(photo.id)?.metadata_status !== 'pending', 60_000, 'metadata');
  return photo.id;
}

async function readText(c: Core, photoId: number) {
  const { job } = c.jobs.enqueue({ type: 'ocr', payload: { photoId } });
  const row = await waitForStatus(c, job.id, ['success', 'failed', 'cancelled'], 120_000);
  expect(row.status, row.error_message ?? '').toBe('success');
}

const fete = villageFete;

describe('history named in a caption', () => {
  it('dates "V-E Day celebrations, London" to 8 May 1945, with its source, and a rejection sticks', async () => {
    core = openTestCore();
    const photoId = await importCaption(core, 'V-E Day celebrations, London');
    await readText(core, photoId);
    const history = core.evidenceService.list(photoId, false).items.filter((i) => i.source === 'ocr' && i.details?.history);
    expect(history).toHaveLength(1);
    const [item] = history;
    expect(item).toMatchObject({ kind: 'estimate', earliest: 19450508, latest: 19450508, reviewStatus: 'pending' });
    expect(item.summary).toMatch(/V-E Day.*1945 May 8/);
    if (item.source !== 'ocr') throw new Error('not OCR');
    expect(item.details!.history).toMatchObject({
      entryId: 've-day',
      origin: 'catalogue',
      reading: 'dates',
      source: { work: 'Wikipedia', title: 'Victory in Europe Day' },
    });
    expect(item.details!.reason).toContain('Wikipedia, “Victory in Europe Day”');

    core.evidenceService.review(item.id, 'accepted', undefined);
    expect(core.photos.get(photoId)).toMatchObject({ estimate_earliest: 19450508, estimate_latest: 19450508 });

    core.evidenceService.review(item.id, 'rejected', 'a later anniversary');
    expect(core.photos.get(photoId)).toMatchObject({ estimate_status: 'undated' });
    await readText(core, photoId);
    const again = core.evidenceService
      .list(photoId, false)
      .items.filter((i) => i.source === 'ocr' && i.reviewStatus === 'pending');
    expect(again).toEqual([]);
  });

  it("reads the archivist's own entry, keeps it in the library, and backs it up", async () => {
    core = openTestCore();
    const saved = await core.dispatch('historyEntries.save', { entries: [fete] });
    expect(saved.ok && saved.value).toMatchObject({ entries: [fete], unreadable: 0 });
    expect(saved.ok && (saved.value as { catalogue: { entries: number } }).catalogue.entries).toBeGreaterThanOrEqual(150);

    const photoId = await importCaption(core, 'Ashby Village Fete, the tug of war');
    await readText(core, photoId);
    const item = core.evidenceService.list(photoId, false).items.find((i) => i.source === 'ocr' && i.details?.history)!;
    expect(item).toMatchObject({ kind: 'estimate', earliest: 19230714, latest: 19230714 });
    if (item.source !== 'ocr') throw new Error('not OCR');
    expect(item.details!.history).toMatchObject({ entryId: 'ashby-village-fete', origin: 'own', source: fete.source });

    const { job } = core.jobs.enqueue({ type: 'backup', payload: {} });
    expect((await waitForStatus(core, job.id, ['success', 'failed'], 60_000)).status).toBe('success');
    const [backup] = await readBackupFolder(core.paths.backupsDir);
    const copy = new Database(backup.file, { readonly: true });
    try {
      const value = copy.prepare('SELECT value FROM settings WHERE key = ?').pluck().get(OWN_HISTORY_KEY) as string;
      expect(JSON.parse(value)).toEqual([fete]);
    } finally {
      copy.close();
    }
  });

  it('keeps a stored entry it cannot read, counts it, and does not lose it on the next save', async () => {
    core = openTestCore({ runJobs: false });
    core.settings.setFlag(OWN_HISTORY_KEY, [fete, { id: 'from-a-newer-circa', kind: 'epoch' }]);
    const listed = await core.dispatch('historyEntries.list', {});
    expect(listed.ok && listed.value).toMatchObject({ entries: [fete], unreadable: 1 });
    const saved = await core.dispatch('historyEntries.save', { entries: [] });
    expect(saved.ok && saved.value).toMatchObject({ entries: [], unreadable: 1 });
    expect(core.settings.getFlag('history.ownEntries.unreadable', [])).toEqual([{ id: 'from-a-newer-circa', kind: 'epoch' }]);
  });
});
