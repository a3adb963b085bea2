/**
 * A photo's original is checked at every open, not once at import: swapped for a link to
 * /etc/passwd, to the library's audit.key or browser.json (the token), or for another file, it is
 * "changed on disk" and its bytes are not served — through the Electron protocol and through
 * browser mode's /media route, and also after a restart (nothing is remembered between opens).
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserServer, type BrowserServer } from '../../src/main/browser/server';
import type { Core } from '../../src/main/core/core';
import { serveMedia } from '../../src/main/media/media';
import type { Viewer } from '../../src/shared/contract';
import { openTestCore, tempDir } from '../support/core';

// A real JPEG, made here: the shared corpus is not beside every checkout.
const SAMPLE = path.join(tempDir('circa-sample-'), 'sample.jpg');
beforeAll(async () => {
  await sharp({ create: { width: 100, height: 68, channels: 3, background: '#a08060' } })
    .jpeg()
    .toFile(SAMPLE);
});

let core: Core | undefined;
let server: BrowserServer | undefined;
afterEach(async () => {
  await server?.close();
  await core?.close();
  server = core = undefined;
});

/** A library with one photo, read as a JPEG, imported from its own folder. */
function libraryWithPhoto(libraryDir = tempDir()): { core: Core; id: number; file: string; folder: string } {
  const folder = tempDir('circa-photos-');
  const file = path.join(folder, 'scan.jpg');
  fs.copyFileSync(SAMPLE, file);
  const c = openTestCore({ libraryDir, runJobs: false });
  const st = fs.statSync(file);
  const id = c.db.immediate(() =>
    c.photos.insert(
      { sha256: 'cd'.repeat(32), path: file, filename: 'scan.jpg', size: st.size, mtimeMs: Math.round(st.mtimeMs) },
      Date.now(),
    ),
  )!;
  c.db.sqlite
    .prepare(
      "UPDATE photos SET format = 'jpeg', metadata_status = 'ready', display_width = 100, display_height = 68 WHERE id = ?",
    )
    .run(id);
  core = c;
  return { core: c, id, file, folder };
}

const original = (c: Core, id: number) => serveMedia(c.media, new URL(`circa://app/media/original/${id}`));

/** Swaps the photo's file for a link to `target`. */
function linkInPlace(file: string, target: string): void {
  fs.rmSync(file);
  fs.symlinkSync(target, file);
}

async function viewer(c: Core, id: number): Promise<Viewer> {
  const r = await c.dispatch('photos.viewer', { id });
  if (!r.ok) throw new Error(r.error.message);
  return r.value as Viewer;
}

describe('originals are checked at every open', () => {
  it('the unchanged original is served, byte for byte', async () => {
    const { core: c, id } = libraryWithPhoto();
    const res = await original(c, id);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(fs.readFileSync(SAMPLE))).toBe(true);
    expect(await viewer(c, id)).toMatchObject({ kind: 'image' });
  });

  it.each([
    ['/etc/passwd', () => '/etc/passwd'],
    ["the library's audit.key", (c: Core) => c.paths.auditKeyFile],
    ["the library's browser.json (the token)", (c: Core) => c.paths.browserAddressFile],
  ])('a link to %s is "changed on disk", not served', async (_name, target) => {
    const { core: c, id, file } = libraryWithPhoto();
    const to = target(c);
    if (!fs.existsSync(to)) fs.writeFileSync(to, '{"port":1,"token":"secret"}');
    linkInPlace(file, to);
    const res = await original(c, id);
    expect(res.status).toBe(409);
    expect(await res.text()).toMatch(/changed on disk since it was imported/);
    const v = await viewer(c, id);
    expect(v).toMatchObject({ kind: 'unavailable' });
    expect((v as { reason: string }).reason).toMatch(/changed on disk/);
  });

  it('a file of another size or modification time in its place is "changed on disk"', async () => {
    const { core: c, id, file } = libraryWithPhoto();
    fs.appendFileSync(file, Buffer.alloc(10));
    expect((await original(c, id)).status).toBe(409);
    fs.truncateSync(file, fs.statSync(SAMPLE).size);
    fs.utimesSync(file, new Date(), new Date('2001-02-03T04:05:06Z'));
    const res = await original(c, id);
    expect(res.status).toBe(409);
    expect(await res.text()).toMatch(/modified on 2001-02-03/);
  });

  it('a link that stays inside the imported folder, to the same file, is still served', async () => {
    const { core: c, id, file, folder } = libraryWithPhoto();
    const moved = path.join(folder, 'scan-renamed.jpg');
    fs.renameSync(file, moved); // rename keeps the modification time
    fs.symlinkSync(moved, file);
    expect((await original(c, id)).status).toBe(200);
    await (await original(c, id)).body?.cancel();
  });

  it('browser mode answers 409 with the reason, never the bytes, also after a restart', async () => {
    const libraryDir = tempDir();
    const first = libraryWithPhoto(libraryDir);
    linkInPlace(first.file, first.core.paths.auditKeyFile);
    await first.core.close();
    core = undefined;
    // The same library opened again: nothing trusted from the first run.
    const c = openTestCore({ libraryDir, runJobs: false });
    core = c;
    const rendererDir = tempDir('circa-renderer-');
    fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html>');
    server = await startBrowserServer({ core: c, rendererDir });
    const res = await fetch(`http://127.0.0.1:${server.port}/media/original/${first.id}?token=${server.token}`);
    expect(res.status).toBe(409);
    const text = await res.text();
    expect(text).toMatch(/changed on disk/);
    expect(text).not.toContain(fs.readFileSync(c.paths.auditKeyFile, 'utf8').trim());
  });
});
