/**
 * The zoom view of a photo that left the library (removed, or relinked to a changed file) stayed
 * on disk for ever: hundreds of MB for one archival scan. It is swept when the library opens and
 * hourly; views of photos in the library, of removals that can still be undone, and pyramids a
 * preview job is writing stay.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { sweepOrphanedViews } from '../../src/main/media/orphaned-views';
import { REMOVAL_UNDO_MS } from '../../src/main/photos/photo-removal';
import { callCore, insertBarePhoto, openTestCore, tempDir, waitFor } from '../support/core';

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

/** A zoom view's two folders (the pyramid and its cut tiles), each with a tile in it. */
function makeView(previewsDir: string, sha: string): string[] {
  const dirs = [path.join(previewsDir, sha.slice(0, 2), sha), path.join(previewsDir, sha.slice(0, 2), `${sha}.cut`)];
  for (const dir of dirs) {
    fs.mkdirSync(path.join(dir, 'tiles_files', '9'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'tiles_files', '9', '0_0.jpeg'), Buffer.alloc(2048));
  }
  return dirs;
}

const shaOf = (core: Core, id: number) => core.photos.get(id)!.sha256;

describe('zoom views of photos no longer in the library', () => {
  it('are removed when the library opens; the library’s own and a pyramid being written stay', async () => {
    const dir = tempDir();
    core = openTestCore({ libraryDir: dir, runJobs: false });
    const kept = shaOf(core, insertBarePhoto(core));
    const previews = core.paths.previewsDir;
    await core.close();
    core = undefined;

    const orphan = 'ab'.padEnd(64, 'c');
    const keptDirs = makeView(previews, kept);
    const orphanDirs = makeView(previews, orphan);
    const writing = path.join(previews, 'ab', `${orphan}.tmp-0a1b2c3d4e5f`);
    fs.mkdirSync(writing, { recursive: true });
    const misfiled = path.join(previews, 'cd', 'ef'.padEnd(64, '0')); // not under its own shard
    fs.mkdirSync(misfiled, { recursive: true });
    const stray = path.join(previews, 'notes.txt');
    fs.writeFileSync(stray, 'an archivist’s file');

    core = openTestCore({ libraryDir: dir, runJobs: false });
    await waitFor(() => orphanDirs.every((d) => !fs.existsSync(d)), 10_000, 'the orphaned view to be swept');
    for (const d of [...keptDirs, writing, misfiled, stray]) expect(fs.existsSync(d), d).toBe(true);
  });

  it('a removed photo’s view stays while the removal can be undone, and goes after', async () => {
    core = openTestCore({ runJobs: false });
    const id = insertBarePhoto(core);
    const sha = shaOf(core, id);
    const viewDirs = makeView(core.paths.previewsDir, sha);
    const removal = await callCore(core, 'photos.remove', { ids: [id] });
    expect(removal.removed).toBe(1);

    expect(core.removal.holdsView(sha)).toBe(true);
    expect(await sweepOrphanedViews(core.paths.previewsDir, (s) => core!.removal.holdsView(s))).toEqual([]);
    for (const d of viewDirs) expect(fs.existsSync(d)).toBe(true);

    const afterUndoWindow = Date.now() + REMOVAL_UNDO_MS + 1;
    const swept = await sweepOrphanedViews(core.paths.previewsDir, (s) => core!.removal.holdsView(s, afterUndoWindow));
    expect(swept.sort()).toEqual([...viewDirs].sort());
    for (const d of viewDirs) expect(fs.existsSync(d)).toBe(false);
  });

  it('a view whose photo was brought back by undo stays', async () => {
    core = openTestCore({ runJobs: false });
    const id = insertBarePhoto(core);
    const sha = shaOf(core, id);
    const viewDirs = makeView(core.paths.previewsDir, sha);
    const removal = await callCore(core, 'photos.remove', { ids: [id] });
    await callCore(core, 'photos.undoRemove', removal.undo!);
    const afterUndoWindow = Date.now() + REMOVAL_UNDO_MS + 1;
    expect(await sweepOrphanedViews(core.paths.previewsDir, (s) => core!.removal.holdsView(s, afterUndoWindow))).toEqual([]);
    for (const d of viewDirs) expect(fs.existsSync(d)).toBe(true);
  });
});
