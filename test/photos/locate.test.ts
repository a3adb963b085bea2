/**
 * Locate… (issue 15): the archivist points to where missing photos went — a folder or a file — and
 * a `locate` job relinks every missing photo whose content (SHA-256) is found there, never by name,
 * with an audit entry per relink; the place is checked in main before anything is queued.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { appPaths } from '../../src/main/app-paths';
import { locateHandler } from '../../src/worker/handlers/locate';
import { openTestCore, tempDir, waitFor, waitForStatus } from '../support/core';

const JPG = path.resolve(appPaths().root, '..', 'shared', 'corpus', 'exif-samples', 'jpg');
const NAMES = ['Canon_40D.jpg', 'Nikon_D70.jpg', 'Pentax_K10D.jpg'];

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

async function importSettled(c: Core, dir: string): Promise<void> {
  const started = c.importer.start([dir]);
  await waitFor(
    () => {
      const s = c.importer.status();
      return s?.id === started.id && s.status !== 'running' && c.jobs.counts().queued + c.jobs.counts().running === 0;
    },
    60_000,
    'import and metadata',
  );
}

function copies(names: string[]): string {
  const dir = tempDir('circa-locate-');
  for (const n of names) fs.copyFileSync(path.join(JPG, n), path.join(dir, n));
  return dir;
}

const photoByName = (c: Core, name: string) =>
  c.photos.list({ sort: 'filename', filter: 'all', limit: 50 }).items.find((p) => p.filename === name)!;

async function locate(c: Core, input: { path: string; photoIds?: number[]; folder?: string }) {
  const r = await c.dispatch('photos.locate', input);
  if (!r.ok) throw new Error(`photos.locate failed: ${r.error.message}`);
  const { job } = r.value as { job: { id: number } };
  return waitForStatus(c, job.id, ['success', 'failed', 'cancelled'], 60_000);
}

describe('Locate…', () => {
  it('a moved folder: every missing photo found there by content is relinked, with its audit entry; the rest is reported', async () => {
    const libraryDir = tempDir('circa-locate-lib-');
    const old = copies(NAMES);
    core = openTestCore({ libraryDir });
    await importSettled(core, old);
    const ids = Object.fromEntries(NAMES.map((n) => [n, photoByName(core!, n).id]));
    const evidenceBefore = core.evidence.current(ids['Canon_40D.jpg']);
    await core.close();

    // The folder moves while the library is closed; in it, one photo is renamed, one is taken
    // elsewhere and replaced by a file of the same name and size but other content.
    const moved = path.join(tempDir('circa-moved-'), 'box-12');
    fs.renameSync(old, moved);
    fs.renameSync(path.join(moved, 'Canon_40D.jpg'), path.join(moved, 'canon renamed.jpg'));
    fs.renameSync(path.join(moved, 'Nikon_D70.jpg'), path.join(tempDir('circa-aside-'), 'Nikon_D70.jpg'));
    const decoy = fs.readFileSync(path.join(JPG, 'Nikon_D70.jpg'));
    decoy[decoy.length - 3] ^= 0xff;
    fs.writeFileSync(path.join(moved, 'Nikon_D70.jpg'), decoy);
    fs.writeFileSync(path.join(moved, 'notes.txt'), 'not a photo');

    core = openTestCore({ libraryDir });
    await waitFor(() => core!.locations.missingCount() === 3, 30_000, 'missing at open');
    const folders = await core.dispatch('photos.missingFolders', {});
    expect(folders).toEqual({ ok: true, value: { items: [{ folder: old, count: 3 }], folders: 1, photos: 3 } });

    const job = await locate(core, { path: moved, folder: old });
    expect(job.status).toBe('success');
    expect(job.result_summary).toBe(
      `Relinked 2 photos found in ${moved}; 1 photo still missing; 1 file there matched no missing photo (Nikon_D70.jpg).`,
    );
    expect(core.photos.summary(ids['Canon_40D.jpg'])).toMatchObject({
      path: path.join(moved, 'canon renamed.jpg'),
      filename: 'canon renamed.jpg',
      missing: false,
    });
    expect(core.photos.summary(ids['Pentax_K10D.jpg'])).toMatchObject({
      path: path.join(moved, 'Pentax_K10D.jpg'),
      missing: false,
    });
    // Same name and size, other content: not the photo.
    expect(core.photos.summary(ids['Nikon_D70.jpg'])).toMatchObject({ path: path.join(old, 'Nikon_D70.jpg'), missing: true });
    expect(core.evidence.current(ids['Canon_40D.jpg'])).toEqual(evidenceBefore);

    const audit = core.db.sqlite
      .prepare(`SELECT photo_id, data FROM audit_events WHERE event = 'photo_relinked' ORDER BY photo_id`)
      .all() as { photo_id: number; data: string }[];
    expect(audit.map((a) => ({ photoId: a.photo_id, ...(JSON.parse(a.data) as object) }))).toEqual(
      [
        {
          photoId: ids['Canon_40D.jpg'],
          from: path.join(old, 'Canon_40D.jpg'),
          to: path.join(moved, 'canon renamed.jpg'),
          jobId: job.id,
        },
        {
          photoId: ids['Pentax_K10D.jpg'],
          from: path.join(old, 'Pentax_K10D.jpg'),
          to: path.join(moved, 'Pentax_K10D.jpg'),
          jobId: job.id,
        },
      ].sort((a, b) => a.photoId - b.photoId),
    );
    expect(core.ledger.verify().ok).toBe(true);
  });

  it('a single file for one missing photo; a file that is not it is reported as matching nothing', async () => {
    const dir = copies(['Nikon_D70.jpg']);
    core = openTestCore();
    await importSettled(core, dir);
    const id = photoByName(core, 'Nikon_D70.jpg').id;
    const gone = path.join(tempDir('circa-gone-'), 'DSC_0001.jpg');
    fs.renameSync(path.join(dir, 'Nikon_D70.jpg'), gone);
    await importSettled(core, dir); // the folder imported again: the photo is marked missing
    expect(core.photos.summary(id)!.missing).toBe(true);

    const wrong = path.join(tempDir('circa-wrong-'), 'Nikon_D70.jpg');
    fs.copyFileSync(path.join(JPG, 'Canon_40D.jpg'), wrong);
    const miss = await locate(core, { path: wrong, photoIds: [id] });
    expect(miss.result_summary).toBe(
      `No missing photo was found in ${wrong}; 1 photo still missing; 1 file there matched no missing photo (Nikon_D70.jpg).`,
    );
    expect(core.photos.summary(id)!.missing).toBe(true);

    const hit = await locate(core, { path: gone, photoIds: [id] });
    expect(hit.result_summary).toBe(`Relinked 1 photo found in ${gone}; none still missing.`);
    expect(core.photos.summary(id)).toMatchObject({ path: gone, filename: 'DSC_0001.jpg', missing: false });
  });

  it('copies: a second copy of a found photo is neither found again nor unmatched; a copy of a photo that is not missing is unmatched and stays where it is', async () => {
    // A present photo, and a missing one of the same size (one byte changed): a file with the
    // present one's content is read (its size is a missing photo's) but matches no missing photo.
    const dir = copies(['Canon_40D.jpg']);
    const altered = fs.readFileSync(path.join(dir, 'Canon_40D.jpg'));
    altered[altered.length - 3] ^= 0xff;
    fs.writeFileSync(path.join(dir, 'altered.jpg'), altered);
    core = openTestCore();
    await importSettled(core, dir);
    const present = photoByName(core, 'Canon_40D.jpg').id;
    const missing = photoByName(core, 'altered.jpg').id;
    const aside = tempDir('circa-aside-');
    fs.renameSync(path.join(dir, 'altered.jpg'), path.join(aside, 'altered.jpg'));
    await importSettled(core, dir);
    expect(core.photos.summary(missing)!.missing).toBe(true);

    fs.copyFileSync(path.join(aside, 'altered.jpg'), path.join(aside, 'altered copy.jpg'));
    fs.copyFileSync(path.join(dir, 'Canon_40D.jpg'), path.join(aside, 'canon copy.jpg'));
    const job = await locate(core, { path: aside });
    expect(job.result_summary).toBe(
      `Relinked 1 photo found in ${aside}; no photo is missing now; 1 file there matched no missing photo (canon copy.jpg).`,
    );
    expect(core.photos.summary(missing)!.missing).toBe(false);
    expect(['altered.jpg', 'altered copy.jpg'].map((n) => path.join(aside, n))).toContain(core.photos.summary(missing)!.path);
    expect(core.photos.summary(present)).toMatchObject({ path: path.join(dir, 'Canon_40D.jpg'), missing: false });
  });

  it('a photo whose metadata failed for want of its file is read again once located', async () => {
    const dir = copies(['Canon_40D.jpg']);
    core = openTestCore();
    core.runner!.setPaused(true);
    core.importer.start([dir]);
    await waitFor(() => core!.importer.status()?.status === 'done', 30_000, 'import');
    const kept = tempDir('circa-kept-');
    fs.renameSync(path.join(dir, 'Canon_40D.jpg'), path.join(kept, 'Canon_40D.jpg'));
    core.runner!.setPaused(false);
    const id = photoByName(core, 'Canon_40D.jpg').id;
    await waitFor(() => core!.photos.summary(id)?.metadataStatus === 'failed', 60_000, 'metadata failure');

    expect((await locate(core, { path: kept })).status).toBe('success');
    await waitFor(() => core!.photos.summary(id)?.metadataStatus === 'ready', 60_000, 'metadata read again');
    expect(core.photos.summary(id)).toMatchObject({ missing: false, camera: 'Canon EOS 40D' });
  });

  it('main checks the place before queueing anything: each bad one gets its own clear error', async () => {
    core = openTestCore();
    const nowhere = path.join(tempDir('circa-none-'), 'not-here');
    const cases: [string, string, RegExp][] = [
      [nowhere, 'not_found', /does not exist on this computer/],
      ['relative/box-12', 'invalid_input', /not a full path/],
      ['/dev/null', 'invalid_input', /neither a file nor a folder/],
      ['/proc', 'invalid_input', /system folder/],
    ];
    for (const [p, code, message] of cases) {
      const r = await core.dispatch('photos.locate', { path: p });
      expect(r, p).toMatchObject({ ok: false, error: { code, message: expect.stringMatching(message) } });
    }
    expect(core.jobs.counts().queued).toBe(0);
  });

  it('a place gone by the time the job runs fails it for good, saying why', async () => {
    core = openTestCore();
    core.runner!.setPaused(true);
    const dir = tempDir('circa-vanishing-');
    const r = await core.dispatch('photos.locate', { path: dir });
    if (!r.ok) throw new Error(r.error.message);
    fs.rmSync(dir, { recursive: true });
    core.runner!.setPaused(false);
    const job = await waitForStatus(core, (r.value as { job: { id: number } }).job.id, ['success', 'failed'], 30_000);
    expect(job).toMatchObject({
      status: 'failed',
      error_message: expect.stringContaining(`Cannot look in ${dir}: it does not exist`),
    });
  });

  it('the worker stops when its job is cancelled', async () => {
    const dir = copies(NAMES);
    const controller = new AbortController();
    controller.abort();
    const sizes = NAMES.map((n) => fs.statSync(path.join(dir, n)).size);
    await expect(
      locateHandler(
        { path: dir, sizes, missing: NAMES.length },
        { jobId: 1, attempt: 1, signal: controller.signal, progress: () => {} },
      ),
    ).rejects.toThrow(/abort/i);
  });
});
