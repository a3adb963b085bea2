/**
 * What a crash leaves behind is swept when the library opens (a hidden backup partial stayed until
 * a backup 5 minutes on, a .partial-journal and a staged restore for ever, a thumbnail's .tmp-
 * file through restarts), while files another process may be writing right now are left alone.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { startLeftoverSweep } from '../../src/main/library/leftovers';
import { openTestCore, tempDir, waitFor } from '../support/core';

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

const HOUR_AGO = new Date(Date.now() - 3_600_000);

/** Writes `file` (making its folder) with an old modification time unless `fresh`. */
function leave(file: string, fresh = false): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, Buffer.alloc(4096));
  if (!fresh) fs.utimesSync(file, HOUR_AGO, HOUR_AGO);
  return file;
}

describe('leftovers of a crash', () => {
  it('are removed when the library opens; its own files and fresh partials stay', async () => {
    const dir = tempDir();
    const chosen = tempDir('circa-backups-');
    // A first open makes the library; the crash happens "later".
    await openTestCore({ libraryDir: dir, runJobs: false }).close();
    const gone = [
      leave(path.join(dir, 'backups', '.circa-20261201-101500-scheduled.db.partial')),
      leave(path.join(dir, 'backups', '.circa-20261201-101500-scheduled.db.partial-journal')),
      leave(path.join(dir, '.circa.db.restoring.partial')),
      leave(path.join(dir, '.circa.db.restoring.partial-journal')),
      leave(path.join(dir, 'thumbnails', 'ab', '1234.jpg.tmp-0a1b2c3d4e5f')),
      leave(path.join(chosen, '.circa-20261201-101500-manual.db.partial')),
    ];
    const kept = [
      leave(path.join(dir, 'backups', 'circa-20261201-090000-manual.db')),
      leave(path.join(dir, 'backups', 'circa-20261201-090000-manual.db.json')),
      leave(path.join(dir, 'thumbnails', 'ab', '1234.jpg')),
      // Touched just now: perhaps a backup another process is writing.
      leave(path.join(dir, 'backups', '.circa-20261201-101600-manual.db.partial'), true),
    ];
    const seed = openTestCore({ libraryDir: dir, runJobs: false });
    seed.settings.update({ backupDir: chosen });
    await seed.close();

    core = openTestCore({ libraryDir: dir, runJobs: false });
    await waitFor(() => gone.every((f) => !fs.existsSync(f)), 10_000, 'the leftovers to be removed');
    for (const f of kept) expect(fs.existsSync(f), f).toBe(true);
  });

  it('a partial too fresh to judge at open is looked at again once it has been quiet', async () => {
    const dir = tempDir();
    const partial = leave(path.join(dir, 'backups', '.circa-20261201-101600-manual.db.partial'), true);
    const infos: string[] = [];
    const sweep = startLeftoverSweep(
      { libraryDir: dir, thumbnailsDir: path.join(dir, 'thumbnails'), backupDirs: [path.join(dir, 'backups')] },
      { info: (m) => infos.push(m), warn() {}, error() {} },
      300,
    );
    await waitFor(() => !fs.existsSync(partial), 10_000, 'the second look to remove it');
    expect(infos.join('\n')).toMatch(/removed 1 file\(s\)/);
    await sweep.close();
  });
});
