/**
 * Removing photos from the library (issue 15): never the file; evidence and reviews kept in the
 * audit ledger; queued jobs cancelled; undoable for a while; the library's counts stay right.
 */
import { PHOTO_HASH_METHOD } from '../../src/shared/duplicates/hash-set';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { openTestCore, tempDir, waitFor } from '../support/core';
import { appPaths } from '../../src/main/app-paths';

const JPG = path.resolve(appPaths().root, '..', 'shared', 'corpus', 'exif-samples', 'jpg');

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

async function library(c: Core, names: string[], settle = true): Promise<string> {
  const dir = tempDir('circa-remove-');
  for (const n of names) fs.copyFileSync(path.join(JPG, n), path.join(dir, n));
  const started = c.importer.start([dir]);
  await waitFor(
    () => {
      const s = c.importer.status();
      return s?.id === started.id && s.status === 'done' && (!settle || c.jobs.counts().queued + c.jobs.counts().running === 0);
    },
    60_000,
    'import',
  );
  return dir;
}

const all = (c: Core) => c.photos.list({ sort: 'filename', filter: 'all', limit: 20 });

describe('removing photos from the library', () => {
  it('removes a selection, keeps the files and every decision in the ledger, and undo brings them back as they were', async () => {
    core = openTestCore();
    const dir = await library(core, ['Canon_40D.jpg', 'Nikon_D70.jpg']);
    const canon = all(core).items.find((p) => p.filename === 'Canon_40D.jpg')!;
    const [exif] = core.evidence.current(canon.id);
    core.evidenceService.review(exif.id, 'accepted', 'camera clock checked');
    const evidenceBefore = core.evidence.current(canon.id);
    const summaryBefore = core.photos.summary(canon.id);

    const r = await core.dispatch('photos.remove', { ids: [canon.id] });
    expect(r).toMatchObject({ ok: true, value: { removed: 1 } });
    if (!r.ok) return;
    const { undo } = r.value as { undo: { first: number; last: number } };
    expect(fs.existsSync(path.join(dir, 'Canon_40D.jpg'))).toBe(true);
    expect(core.photos.get(canon.id)).toBeUndefined();
    expect(all(core).total).toBe(1);
    const entry = core.db.sqlite
      .prepare(`SELECT data FROM audit_events WHERE event = 'photo_removed' AND photo_id = ?`)
      .pluck()
      .get(canon.id) as string;
    const kept = JSON.parse(entry) as { path: string; evidence: { review_status: string; review_note: string }[] };
    expect(kept.path).toBe(path.join(dir, 'Canon_40D.jpg'));
    expect(kept.evidence[0]).toMatchObject({ review_status: 'accepted', review_note: 'camera clock checked' });
    expect(core.ledger.verify().ok).toBe(true);

    const back = await core.dispatch('photos.undoRemove', undo);
    expect(back).toMatchObject({ ok: true, value: { restored: 1, skipped: 0 } });
    expect(core.photos.summary(canon.id)).toEqual(summaryBefore);
    expect(core.evidence.current(canon.id)).toEqual(evidenceBefore);
    expect(all(core).total).toBe(2);
    // Its duplicate hashes went with the removal: the next scan hashes it again (an older method's row).
    const hashRow = core.db.sqlite.prepare('SELECT method FROM photo_hashes WHERE photo_id = ?').get(canon.id) as {
      method: number;
    };
    expect(hashRow.method).toBeLessThan(PHOTO_HASH_METHOD);
    // A second undo changes nothing.
    expect(await core.dispatch('photos.undoRemove', undo)).toMatchObject({ ok: true, value: { restored: 0, skipped: 1 } });
  });

  it("cancels a removed photo's queued jobs, and undo reads its metadata again", async () => {
    core = openTestCore();
    core.runner!.setPaused(true);
    await library(core, ['Canon_40D.jpg'], false);
    const [photo] = all(core).items;
    const jobs = () => core!.jobs.queries.list({ subject: `photo:${photo.id}`, limit: 10 }).rows;
    expect(jobs().map((j) => j.status)).toEqual(['queued']);
    const r = core.removal.remove([photo.id]);
    expect(jobs().map((j) => j.status)).toEqual(['cancelled']);
    core.runner!.setPaused(false);
    core.removal.undo(r.undo!.first, r.undo!.last);
    await waitFor(() => core!.photos.summary(photo.id)?.metadataStatus === 'ready', 60_000, 'metadata after undo');
  });

  it('keeps the counts the grid shows right through removal and undo', async () => {
    core = openTestCore();
    await library(core, ['Canon_40D.jpg', 'Nikon_D70.jpg']);
    const ids = all(core).items.map((p) => p.id);
    const r = core.removal.remove(ids);
    expect(r.removed).toBe(2);
    expect(all(core).total).toBe(0);
    expect(core.photos.list({ sort: 'filename', filter: 'all', limit: 20, search: 'Canon' }).total).toBe(0);
    core.removal.undo(r.undo!.first, r.undo!.last);
    expect(all(core).total).toBe(2);
    expect(core.photos.list({ sort: 'filename', filter: 'all', limit: 20, search: 'Canon' }).total).toBe(1);
  });

  it('refuses an undo that is not a removal', async () => {
    core = openTestCore();
    expect(await core.dispatch('photos.undoRemove', { first: 1, last: 5 })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });
});
