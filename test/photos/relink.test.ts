/**
 * Moved files (issue 15): a photo whose file is gone is marked missing when the library opens or
 * when its folder is imported again, and importing a file with its content relinks it, keeping
 * its evidence and reviews.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import type { ImportProgress } from '../../src/shared/contract';
import { openTestCore, tempDir, waitFor } from '../support/core';
import { appPaths } from '../../src/main/app-paths';

const CANON = path.resolve(appPaths().root, '..', 'shared', 'corpus', 'exif-samples', 'jpg', 'Canon_40D.jpg');
const NIKON = path.resolve(appPaths().root, '..', 'shared', 'corpus', 'exif-samples', 'jpg', 'Nikon_D70.jpg');

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

async function importAndSettle(c: Core, paths: string[]): Promise<ImportProgress> {
  const started = c.importer.start(paths);
  await waitFor(
    () => {
      const s = c.importer.status();
      return s && s.id === started.id && s.status !== 'running' && c.jobs.counts().queued + c.jobs.counts().running === 0;
    },
    60_000,
    'import and metadata',
  );
  return c.importer.status()!;
}

function folderWith(...files: string[]): string {
  const dir = tempDir('circa-relink-');
  for (const f of files) fs.copyFileSync(f, path.join(dir, path.basename(f)));
  return dir;
}

const only = (c: Core) => c.photos.list({ sort: 'filename', filter: 'all', limit: 10 }).items;

describe('moved files', () => {
  it('re-importing a folder marks what left it missing; importing the moved file relinks it with its evidence', async () => {
    const dir = folderWith(CANON, NIKON);
    core = openTestCore();
    await importAndSettle(core, [dir]);
    const canon = only(core).find((p) => p.filename === 'Canon_40D.jpg')!;
    const evidenceBefore = core.evidence.current(canon.id);
    expect(evidenceBefore.length).toBeGreaterThan(0);

    // Moved (and renamed) elsewhere: importing its old folder again says it is no longer there.
    const elsewhere = tempDir('circa-moved-');
    const moved = path.join(elsewhere, 'canon-renamed.jpg');
    fs.renameSync(path.join(dir, 'Canon_40D.jpg'), moved);
    const again = await importAndSettle(core, [dir]);
    expect(again).toMatchObject({ added: 0, duplicates: 1, markedMissing: 1, relinked: 0 });
    expect(again.message).toContain('1 no longer there (marked missing)');
    expect(core.photos.summary(canon.id)!.missing).toBe(true);
    expect(core.photos.summary(only(core).find((p) => p.filename === 'Nikon_D70.jpg')!.id)!.missing).toBe(false);

    // Importing the moved file finds it by content: the same photo, at its new place.
    const found = await importAndSettle(core, [elsewhere]);
    expect(found).toMatchObject({ added: 0, duplicates: 0, relinked: 1 });
    expect(found.message).toContain('1 found at a new place (relinked)');
    expect(core.photos.summary(canon.id)).toMatchObject({ path: moved, filename: 'canon-renamed.jpg', missing: false });
    expect(core.evidence.current(canon.id)).toEqual(evidenceBefore);
    expect(only(core)).toHaveLength(2);
    const relinked = core.db.sqlite
      .prepare(`SELECT data FROM audit_events WHERE event = 'photo_relinked' AND photo_id = ?`)
      .pluck()
      .all(canon.id) as string[];
    expect(relinked.map((d) => JSON.parse(d) as unknown)).toEqual([{ from: path.join(dir, 'Canon_40D.jpg'), to: moved }]);
    expect(core.ledger.verify().ok).toBe(true);
  });

  it('a second copy of a photo whose file is still there is a duplicate, not a relink', async () => {
    const dir = folderWith(CANON);
    core = openTestCore();
    await importAndSettle(core, [dir]);
    const copy = await importAndSettle(core, [folderWith(CANON)]);
    expect(copy).toMatchObject({ added: 0, duplicates: 1, relinked: 0 });
    expect(only(core)[0].path).toBe(path.join(dir, 'Canon_40D.jpg'));
  });

  it('a photo whose metadata failed because its file was gone is read again once relinked', async () => {
    const dir = folderWith(CANON);
    core = openTestCore();
    core.runner!.setPaused(true);
    core.importer.start([dir]);
    await waitFor(() => core!.importer.status()?.status === 'done', 30_000, 'import');
    const kept = path.join(tempDir('circa-kept-'), 'Canon_40D.jpg');
    fs.renameSync(path.join(dir, 'Canon_40D.jpg'), kept);
    core.runner!.setPaused(false);
    await waitFor(() => only(core!)[0]?.metadataStatus === 'failed', 60_000, 'metadata failure');
    expect(only(core)[0].missing).toBe(true);

    const found = await importAndSettle(core, [kept]);
    expect(found).toMatchObject({ relinked: 1 });
    expect(only(core)[0]).toMatchObject({ path: kept, missing: false, metadataStatus: 'ready', camera: 'Canon EOS 40D' });
  });

  it('files gone while the library was closed are missing when it opens, and found again when they are back', async () => {
    const libraryDir = tempDir('circa-lib-');
    const dir = folderWith(CANON);
    core = openTestCore({ libraryDir });
    await importAndSettle(core, [dir]);
    const id = only(core)[0].id;
    await core.close();

    const aside = path.join(tempDir('circa-aside-'), 'Canon_40D.jpg');
    fs.renameSync(path.join(dir, 'Canon_40D.jpg'), aside);
    core = openTestCore({ libraryDir });
    await waitFor(() => core!.photos.summary(id)!.missing, 30_000, 'missing at open');
    await core.close();

    fs.renameSync(aside, path.join(dir, 'Canon_40D.jpg'));
    core = openTestCore({ libraryDir });
    await waitFor(() => !core!.photos.summary(id)!.missing, 30_000, 'found at open');
  });
});
