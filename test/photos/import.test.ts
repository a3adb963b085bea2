import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { Core } from '../../src/main/core/core';
import type { ImportProgress } from '../../src/shared/contract';
import { openTestCore, sourceSpawner, tempDir, waitFor } from '../support/core';
import type { SpawnWorker } from '../../src/main/jobs/worker-process';
import { writeHostileFiles } from '../support/hostile-files';
import { appPaths } from '../../src/main/app-paths';

const CORPUS = path.resolve(appPaths().root, '..', 'shared', 'corpus', 'exif-samples');

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

/** A field of /proc/PID/status, in kB (0 when the process is gone). */
function kb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  try {
    return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

function copyCorpus(files: string[], dest = tempDir('circa-photos-')): string {
  for (const f of files) fs.copyFileSync(path.join(CORPUS, f), path.join(dest, path.basename(f)));
  return dest;
}

async function importAndSettle(c: Core, paths: string[]): Promise<ImportProgress> {
  const started = c.importer.start(paths);
  const done = await waitFor(
    () => {
      const s = c.importer.status();
      return s && s.id === started.id && s.status !== 'running' ? s : undefined;
    },
    60_000,
    'import',
  );
  await waitFor(
    () => {
      const counts = c.jobs.counts();
      return counts.queued + counts.running === 0;
    },
    120_000,
    'metadata jobs',
  );
  return done;
}

describe('photo import and metadata', () => {
  it('imports a folder: every readable file becomes one photo with its metadata; importing again adds nothing', async () => {
    const dir = copyCorpus(['jpg/Canon_40D.jpg', 'jpg/Nikon_D70.jpg', 'jpg/gps/DSCN0010.jpg', 'tiff/Arbitro.tiff']);
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not an image');
    core = openTestCore({ concurrency: 2 });
    const first = await importAndSettle(core, [dir]);
    expect(first).toMatchObject({ status: 'done', found: 4, added: 4, duplicates: 0, skipped: 1, failed: 0 });

    const { items } = core.photos.list({ sort: 'filename', filter: 'all', limit: 50 });
    expect(items.map((p) => p.filename)).toEqual(['Arbitro.tiff', 'Canon_40D.jpg', 'DSCN0010.jpg', 'Nikon_D70.jpg']);
    expect(items.every((p) => p.metadataStatus === 'ready')).toBe(true);

    const canon = items.find((p) => p.filename === 'Canon_40D.jpg')!;
    expect(canon).toMatchObject({
      camera: 'Canon EOS 40D',
      exifDate: '2008:05:30 15:56:01',
      displayWidth: 100,
      displayHeight: 68,
    });
    // A camera's original date is a strong estimate.
    expect(canon.estimateEarliest).toBe(20080530);
    expect(core.evidence.current(canon.id)).toMatchObject([
      { source: 'exif', kind: 'estimate', earliest: 20080530, latest: 20080530 },
    ]);

    // The thumbnail exists, under thumbnails/, and the original file was not modified.
    const row = core.photos.get(canon.id)!;
    const thumb = path.join(core.paths.dir, row.thumbnail!);
    expect(thumb.startsWith(core.paths.thumbnailsDir)).toBe(true);
    expect((await sharp(thumb).metadata()).format).toBe('jpeg');
    expect(fs.readFileSync(path.join(dir, 'Canon_40D.jpg')).equals(fs.readFileSync(path.join(CORPUS, 'jpg/Canon_40D.jpg')))).toBe(
      true,
    );

    await importAndSettle(core, [dir]);
    const again = core.importer.status()!;
    expect(again).toMatchObject({ status: 'done', added: 0, duplicates: 4 });
    expect(core.photos.list({ sort: 'imported', filter: 'all', limit: 50 }).total).toBe(4);
  });

  // Issue 14 item 6: "these files are scans" was one switch for the whole library.
  it('never takes a camera original for a scan unless the archivist says so, per import or per photo', async () => {
    const dir = copyCorpus(['jpg/Canon_40D.jpg']);
    core = openTestCore();
    await importAndSettle(core, [dir]); // the default: scans, unless the EXIF names a camera
    const [photo] = core.photos.list({ sort: 'imported', filter: 'all', limit: 5 }).items;
    expect(core.evidence.current(photo.id)).toMatchObject([{ kind: 'estimate', earliest: 20080530, latest: 20080530 }]);
    expect(core.photos.get(photo.id)).toMatchObject({ is_scan: 0, scan_policy: 'detect' });
    expect(core.photos.get(photo.id)!.scan_reason).toContain('Canon EOS 40D');

    // The archivist says this one is a scan after all: its EXIF date now only bounds it.
    const marked = await core.dispatch('photos.setScanOverride', { id: photo.id, override: 'scan' });
    expect(marked).toMatchObject({ ok: true, value: { isScan: true, scanReason: 'You marked this photo as a scan' } });
    expect(core.evidence.current(photo.id)).toMatchObject([
      { kind: 'bound', earliest: null, latest: 20080530, review_status: 'pending' },
    ]);
    expect(core.photos.get(photo.id)!.estimate_latest).toBe(20080530);
    // …and undo puts the camera estimate back.
    const action = core.actions.last(photo.id)!;
    expect(action.label).toBe(`Marked photo ${photo.id} as a scan`);
    core.db.immediate(() => core!.actions.undo(action.id, photo.id, (p) => core!.evidence.recompute(p)));
    expect(core.evidence.current(photo.id)).toMatchObject([{ kind: 'estimate', earliest: 20080530 }]);
    expect(core.photos.get(photo.id)).toMatchObject({ is_scan: 0, scan_override: null });

    // An import that says every file is a scan (a copy stand) is the archivist saying so.
    const copyStand = copyCorpus(['jpg/Nikon_D70.jpg']);
    const started = core.importer.start([copyStand], 'all_scans');
    await waitFor(
      () => core!.importer.status()?.id === started.id && core!.importer.status()!.status === 'done',
      30_000,
      'import',
    );
    await waitFor(() => core!.jobs.counts().queued + core!.jobs.counts().running === 0, 60_000, 'metadata');
    const nikon = core.photos
      .list({ sort: 'filename', filter: 'all', limit: 5 })
      .items.find((p) => p.filename === 'Nikon_D70.jpg')!;
    expect(core.evidence.current(nikon.id)).toMatchObject([{ kind: 'bound', earliest: null }]);
    expect(core.photos.get(nikon.id)!.scan_reason).toMatch(/every file is a scan/);
  });

  it('fails exactly the hostile files that cannot be read, each with its reason, while the rest carry on', async () => {
    const dir = tempDir('circa-hostile-');
    await writeHostileFiles(dir);
    copyCorpus(['jpg/Canon_40D.jpg'], dir);
    core = openTestCore({ concurrency: 2 });
    await importAndSettle(core, [dir]);
    const photos = core.photos.list({ sort: 'filename', filter: 'all', limit: 50 }).items;
    const outcome = Object.fromEntries(
      photos.map((p) => [p.filename, p.metadataStatus === 'failed' ? p.metadataError : 'ready']),
    );
    expect(outcome).toEqual({
      'Canon_40D.jpg': 'ready',
      'huge-exif.jpg': 'ready',
      'malformed-exif.jpg': 'ready',
      'really-a-png.jpg': 'ready',
      'pixel-bomb.png': 'Image too large: 50000×50000 px exceeds the 400 MP limit',
      'truncated.jpg': expect.stringMatching(/^Truncated or corrupt JPEG: /),
      'random-bytes.jpg': expect.stringMatching(/^Not an image: the file's bytes are not a supported image format/),
      'empty.jpg': 'File is empty (0 bytes)',
      'not-an-image.png': expect.stringMatching(/^Not an image: the file's bytes are not a supported image format/),
    });
    // Failed jobs are permanent failures: no retries burnt on files that cannot change.
    expect(core.jobs.counts()).toMatchObject({ failed: 5, success: 4 });
    const failedJobs = core.jobs.queries.list({ statuses: ['failed'], limit: 10 }).rows;
    // (`attempt` counts claims: a job an idle worker took back from another's queue is claimed again, uncharged.)
    expect(failedJobs.map((j) => j.retry_count)).toEqual([0, 0, 0, 0, 0]);
  });

  it('a pixel bomb is refused without the worker that reads it growing (its own memory, measured)', async () => {
    const dir = tempDir('circa-bomb-');
    const hostile = await writeHostileFiles(dir);
    const pids: number[] = [];
    const spawnSource = sourceSpawner();
    const spawn: SpawnWorker = (o) => {
      const w = spawnSource(o);
      if (w.pid) pids.push(w.pid);
      return w;
    };
    core = openTestCore({ concurrency: 1, spawn });
    const peak = () => Math.max(...pids.map((pid) => kb(pid, 'VmHWM')));
    await waitFor(() => pids.length === 1 && kb(pids[0], 'VmRSS') > 0, 30_000, 'the worker');
    await importAndSettle(core, [hostile.pixelBomb]);
    const [photo] = core.photos.list({ sort: 'imported', filter: 'all', limit: 5 }).items;
    expect(photo.metadataError).toMatch(/^Image too large: 50000×50000 px/);
    // One worker ran the job and is still alive: its peak resident memory over its whole life
    // (VmHWM) covers the bomb. Decoding 2.5 gigapixels would take gigabytes.
    expect(pids).toHaveLength(1);
    expect(peak()).toBeGreaterThan(20 * 1024); // a real Node process with sharp loaded (kB)
    expect(peak()).toBeLessThan(400 * 1024);
  });

  it('marks a photo whose file disappeared as missing', async () => {
    const dir = copyCorpus(['jpg/Canon_40D.jpg']);
    core = openTestCore();
    core.runner!.setPaused(true);
    core.importer.start([dir]);
    await waitFor(() => core!.importer.status()?.status === 'done', 30_000, 'import');
    fs.rmSync(path.join(dir, 'Canon_40D.jpg'));
    core.runner!.setPaused(false);
    const [photo] = await waitFor(
      () => {
        const items = core!.photos.list({ sort: 'imported', filter: 'failed', limit: 5 }).items;
        return items.length ? items : undefined;
      },
      60_000,
      'metadata failure',
    );
    expect(photo.missing).toBe(true);
    expect(photo.metadataError).toMatch(/not found/i);
  });
});

describe('a metadata job lost with its runner', () => {
  it('marks the photo failed when the lapsed lease has no retries left', async () => {
    const dir = copyCorpus(['jpg/Canon_40D.jpg']);
    core = openTestCore();
    core.runner!.setPaused(true);
    core.importer.start([dir]);
    await waitFor(() => core!.importer.status()?.status === 'done', 30_000, 'import');
    const [photo] = core.photos.list({ sort: 'imported', filter: 'all', limit: 1 }).items;
    const [job] = core.jobs.queries.list({ types: ['metadata'], limit: 1 }).rows;
    // A runner that claimed it and died: running, a lapsed lease, no retries left.
    core.db.sqlite
      .prepare(
        `UPDATE background_jobs SET status = 'running', claimed_by = 'ghost/w0', attempt = 4, retry_count = max_retries,
                lease_expires_at = ?, started_at = ? WHERE id = ?`,
      )
      .run(Date.now() - 1000, Date.now() - 60_000, job.id);
    const row = await waitFor(
      () => {
        const r = core!.jobs.queries.get(job.id)!;
        return r.status === 'failed' ? r : undefined;
      },
      30_000,
      'the sweep',
    );
    expect(row.error_message).toMatch(/stopped renewing its lease/);
    const after = core.photos.get(photo.id)!;
    expect(after.metadata_status).toBe('failed');
    expect(after.metadata_error).toMatch(/stopped renewing its lease/);
  });
});

describe('an import that cannot write to the library', () => {
  it('stops with a clear message when another program holds the library locked, and a second run adds everything', async () => {
    const dir = copyCorpus(['jpg/Canon_40D.jpg', 'jpg/Nikon_D70.jpg']);
    core = openTestCore();
    core.runner!.setPaused(true);
    // Another program takes the write lock and keeps it past the busy timeout.
    const Database = (await import('better-sqlite3')).default;
    const other = new Database(core.paths.dbFile);
    other.prepare('BEGIN IMMEDIATE').run();
    try {
      core.importer.start([dir]);
      const stopped = await waitFor(
        () => {
          const s = core!.importer.status();
          return s && s.status !== 'running' ? s : undefined;
        },
        30_000,
        'the import to stop',
      );
      expect(stopped.status).toBe('failed');
      expect(stopped.message).toMatch(/locked by another process/);
      expect(stopped.errors[0]?.message).toMatch(/not added/);
    } finally {
      other.prepare('ROLLBACK').run();
      other.close();
    }
    expect(core.photos.list({ sort: 'imported', filter: 'all', limit: 5 }).total).toBe(0);
    const again = core.importer.start([dir]);
    const done = await waitFor(
      () => {
        const s = core!.importer.status();
        return s && s.id === again.id && s.status !== 'running' ? s : undefined;
      },
      30_000,
      'the second import',
    );
    expect(done).toMatchObject({ status: 'done', added: 2, duplicates: 0 });
  });
});

describe("each import's summary is its own and true (issue 15)", () => {
  it('says a path that does not exist does not exist, even beside one that does', async () => {
    const dir = copyCorpus(['jpg/Canon_40D.jpg']);
    core = openTestCore();
    await importAndSettle(core, [dir, '/no/such/folder/anywhere']);
    const done = core.importer.status()!;
    expect(done).toMatchObject({ status: 'done', added: 1, failed: 1 });
    expect(done.errors).toEqual([{ path: '/no/such/folder/anywhere', message: 'does not exist on this computer' }]);
    expect(done.message).toBe('Import finished: 1 added, 1 could not be imported.');
  });

  it('counts the photos whose metadata turns out unreadable, with why, once they have been read', async () => {
    const dir = copyCorpus(['jpg/Canon_40D.jpg']);
    fs.writeFileSync(path.join(dir, 'broken.jpg'), 'this is not a JPEG at all');
    fs.writeFileSync(path.join(dir, 'empty.jpg'), '');
    core = openTestCore();
    await importAndSettle(core, [dir]);
    const s = core.importer.status()!;
    expect(s).toMatchObject({ status: 'done', found: 3, added: 3, failed: 0, reading: 0, unreadable: 2 });
    // Added (in the library, marked unreadable), so never among the files that could not be imported.
    expect(s.errors).toEqual([]);
    expect(s.unreadableFiles.map((e) => path.basename(e.path)).sort()).toEqual(['broken.jpg', 'empty.jpg']);
    expect(s.unreadableFiles.find((e) => e.path.endsWith('broken.jpg'))!.message).toMatch(/Not an image/);
    expect(s.message).toBe('Import finished: 3 added (2 of them unreadable).');

    // The next import's summary is its own: none of the last one's failures.
    await importAndSettle(core, [dir]);
    const again = core.importer.status()!;
    expect(again).toMatchObject({ added: 0, duplicates: 3, failed: 0, unreadable: 0, errors: [], unreadableFiles: [] });
    expect(again.message).toBe('Import finished: 0 added, 3 already in the library.');
    // Each file imported again is its photo's own file, not a copy: none is named as skipped.
    expect(again.duplicateFiles).toEqual([]);
  });

  it('names each copy not added and the file kept in its place', async () => {
    const dir = copyCorpus(['jpg/Canon_40D.jpg', 'jpg/Nikon_D70.jpg']);
    core = openTestCore();
    await importAndSettle(core, [dir]);
    // A second folder: a copy of a photo already here, and two copies of one new file.
    const more = copyCorpus(['jpg/Canon_40D.jpg', 'jpg/Sony_HDR-HC3.jpg']);
    fs.copyFileSync(path.join(more, 'Sony_HDR-HC3.jpg'), path.join(more, 'Sony_HDR-HC3 copy.jpg'));
    const done = await importAndSettle(core, [more]);
    expect(done).toMatchObject({ added: 1, duplicates: 2 });
    const kept = (name: string) => done.duplicateFiles.find((d) => path.basename(d.path) === name)?.keptPath;
    expect(done.duplicateFiles).toHaveLength(2);
    expect(kept('Canon_40D.jpg')).toBe(path.join(dir, 'Canon_40D.jpg'));
    // Of two new copies the one added is kept; the other is named with it.
    const sony = done.duplicateFiles.find((d) => d.path.startsWith(path.join(more, 'Sony')))!;
    const added = core.photos
      .list({ sort: 'filename', filter: 'all', limit: 10 })
      .items.find((p) => p.filename.startsWith('Sony'))!;
    expect(sony.keptPath).toBe(path.join(more, added.filename));
    expect(sony.path).not.toBe(sony.keptPath);
  });

  it('a cancelled import says how far it got and that it was cancelled', async () => {
    const dir = copyCorpus(['jpg/Canon_40D.jpg', 'jpg/Nikon_D70.jpg']);
    core = openTestCore();
    core.runner!.setPaused(true);
    const started = core.importer.start([dir]);
    core.importer.cancel(started.id);
    const s = await waitFor(
      () => {
        const p = core!.importer.status();
        return p && p.status !== 'running' ? p : undefined;
      },
      30_000,
      'cancel',
    );
    expect(s.status).toBe('cancelled');
    expect(s.message).toMatch(/^Import cancelled: \d+ added/);
    expect(s.reading).toBe(s.added); // paused: nothing read yet
    if (s.added) expect(s.message).toMatch(/Still reading/);
  });
});
