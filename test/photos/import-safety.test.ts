/**
 * What an import may reach and what it tells the archivist: links are resolved and a link out of
 * the imported folder is not followed; originals are served only for recognised images; pseudo
 * file systems are refused and whole-disk or huge imports need a confirmation; every file that is
 * skipped — HEIC, FIFOs, devices, links, other files — is counted and named with its reason.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { startBrowserServer } from '../../src/main/browser/server';
import type { ImportProgress } from '../../src/shared/contract';
import { appPaths } from '../../src/main/app-paths';
import { openTestCore, tempDir, waitFor } from '../support/core';

const CORPUS = path.resolve(appPaths().root, '..', 'shared', 'corpus', 'exif-samples');
const isRoot = process.getuid?.() === 0;

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

async function importAndSettle(c: Core, paths: string[], confirmed = false): Promise<ImportProgress> {
  const started = await c.dispatch('photos.import', { paths, confirmed });
  if (!started.ok) throw new Error(started.error.message);
  const id = (started.value as ImportProgress).id;
  const done = await waitFor(
    () => {
      const s = c.importer.status();
      return s && s.id === id && s.status !== 'running' ? s : undefined;
    },
    60_000,
    'import',
  );
  await waitFor(() => c.jobs.counts().queued + c.jobs.counts().running === 0, 60_000, 'metadata jobs');
  return done;
}

function photoFolder(): string {
  const dir = tempDir('circa-import-');
  fs.copyFileSync(path.join(CORPUS, 'jpg/Canon_40D.jpg'), path.join(dir, 'Canon_40D.jpg'));
  return dir;
}

describe('links and originals', () => {
  it('a link to /etc/passwd inside the folder is not followed, and says so', async () => {
    const dir = photoFolder();
    fs.symlinkSync('/etc/passwd', path.join(dir, 'passwd-link.jpg'));
    fs.mkdirSync(path.join(dir, 'inside'));
    fs.copyFileSync(path.join(CORPUS, 'jpg/Nikon_D70.jpg'), path.join(dir, 'inside', 'nikon.jpg'));
    fs.symlinkSync(path.join(dir, 'inside', 'nikon.jpg'), path.join(dir, 'nikon-link.jpg'));
    core = openTestCore();
    const done = await importAndSettle(core, [dir]);
    const paths = core.photos.list({ sort: 'filename', filter: 'all', limit: 10 }).items.map((p) => p.path);
    expect(paths).not.toContain('/etc/passwd');
    // A link inside the folder is resolved: the photo is recorded at its real path, once.
    expect(paths.sort()).toEqual([path.join(dir, 'Canon_40D.jpg'), path.join(dir, 'inside', 'nikon.jpg')].sort());
    expect(done.skippedFiles).toContainEqual({
      path: path.join(dir, 'passwd-link.jpg'),
      reason: expect.stringMatching(/link to a file outside the imported folder.*\/etc\/passwd/),
    });
    expect(done.message).toMatch(/link/);
  });

  it('an original that is not a recognised image is never served (a link to /etc/passwd imported by name)', async () => {
    const dir = tempDir('circa-import-');
    const link = path.join(dir, 'passwd-link.jpg');
    fs.symlinkSync('/etc/passwd', link);
    core = openTestCore();
    await importAndSettle(core, [link]);
    const [photo] = core.photos.list({ sort: 'imported', filter: 'all', limit: 5 }).items;
    expect(photo).toMatchObject({ path: '/etc/passwd', metadataStatus: 'failed' });
    const server = await startBrowserServer({ core, rendererDir: tempDir() });
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/media/original/${photo.id}?token=${server.token}`);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain('root:');
    } finally {
      await server.close();
    }
  });
});

describe('what an import may walk', () => {
  it.each(['/proc', '/proc/self', '/sys/kernel', '/dev'])('refuses %s: a pseudo file system', async (p) => {
    core = openTestCore({ runJobs: false });
    const r = await core.dispatch('photos.import', { paths: [p], confirmed: true });
    expect(r).toMatchObject({ ok: false, error: { code: 'conflict', message: expect.stringMatching(/system folder/) } });
    expect(core.importer.status()).toBeNull();
  });

  it.each(['/', '/proc/self/root', path.dirname(os.homedir())])('asks before importing %s, above the home folder', async (p) => {
    core = openTestCore({ runJobs: false });
    const r = await core.dispatch('photos.import', { paths: [p] });
    expect(r).toMatchObject({ ok: false, error: { code: 'needs_confirmation', message: expect.stringMatching(/home folder/) } });
    expect(core.importer.status()).toBeNull();
  });

  it('asks before importing a folder with more than a large number of files, and imports it once confirmed', async () => {
    const dir = photoFolder();
    for (let i = 0; i < 12; i++) fs.writeFileSync(path.join(dir, `note-${i}.txt`), 'x');
    core = openTestCore();
    core.importer.limits.filesBeforeConfirming = 10;
    const r = await core.dispatch('photos.import', { paths: [dir] });
    expect(r).toMatchObject({
      ok: false,
      error: { code: 'needs_confirmation', message: expect.stringMatching(/more than 10 files/) },
    });
    const done = await importAndSettle(core, [dir], true);
    expect(done).toMatchObject({ status: 'done', added: 1, skipped: 12 });
  });

  it('never follows a link into /proc or /sys while walking', async () => {
    const dir = photoFolder();
    fs.symlinkSync('/proc', path.join(dir, 'proc-link'));
    fs.symlinkSync('/proc/self/status', path.join(dir, 'status.jpg'));
    fs.symlinkSync('/sys', path.join(dir, 'sys.jpg'));
    core = openTestCore();
    const done = await importAndSettle(core, [dir]);
    expect(done).toMatchObject({ status: 'done', added: 1, skipped: 3 });
    expect(done.skippedFiles.map((s) => path.basename(s.path)).sort()).toEqual(['proc-link', 'status.jpg', 'sys.jpg']);
  });
});

describe('every skipped file is counted and named, with its reason', () => {
  it('HEIC photos, a FIFO, a device and other files', async () => {
    const dir = photoFolder();
    for (const f of ['IMG_0001.HEIC', 'IMG_0002.heic', 'IMG_0003.heif']) fs.writeFileSync(path.join(dir, f), Buffer.alloc(100));
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not an image');
    execFileSync('mkfifo', [path.join(dir, 'pipe.jpg')]);
    // Making a device node needs root (CAP_MKNOD); as another user this case is covered by the FIFO.
    if (isRoot) execFileSync('mknod', [path.join(dir, 'device.jpg'), 'c', '1', '3']);
    core = openTestCore();
    const done = await importAndSettle(core, [dir]);
    const reasons = Object.fromEntries(done.skippedFiles.map((s) => [path.basename(s.path), s.reason]));
    expect(reasons).toEqual({
      'IMG_0001.HEIC': expect.stringMatching(/HEIC.*convert/),
      'IMG_0002.heic': expect.stringMatching(/HEIC.*convert/),
      'IMG_0003.heif': expect.stringMatching(/HEIC.*convert/),
      'notes.txt': expect.stringMatching(/not an image file type \(\.txt\)/),
      'pipe.jpg': expect.stringMatching(/named pipe/),
      ...(isRoot ? { 'device.jpg': expect.stringMatching(/device/) } : {}),
    });
    expect(done).toMatchObject({ status: 'done', added: 1, skipped: isRoot ? 6 : 5 });
    expect(done.message).toMatch(/3 HEIC/);
  });
});
