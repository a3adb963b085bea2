/**
 * Work the archivist is looking at goes first: during a large import the newest photos sit at the
 * top of the grid but their metadata jobs are the youngest in the queue; the tiles in view ask for
 * theirs to run first. And a tile always knows the state of its photo's metadata job.
 */
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { IN_VIEW_PRIORITY } from '../../src/main/jobs/service';
import { openTestCore, tempDir, waitFor, waitForStatus } from '../support/core';

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

async function folderOf(n: number): Promise<string> {
  const dir = tempDir('circa-inview-');
  for (let i = 0; i < n; i++) {
    const background = { r: (i * 37) % 256, g: (i * 91) % 256, b: (i * 53) % 256 };
    await sharp({ create: { width: 48, height: 32, channels: 3, background } })
      .png()
      .toFile(path.join(dir, `scan-${String(i).padStart(3, '0')}.png`));
  }
  return dir;
}

async function importPaused(c: Core, dir: string) {
  const started = c.importer.start([dir], 'detect');
  await waitFor(() => {
    const s = c.importer.status();
    return s && s.id === started.id && s.status !== 'running' ? s : undefined;
  });
  // Newest first: the grid's default order.
  return c.photos.list({ sort: 'imported', filter: 'all', limit: 500 }).items;
}

const metadataJobOf = (c: Core, photoId: number) =>
  c.jobs.queries.list({ subject: `photo:${photoId}`, types: ['metadata'], limit: 1 }).rows[0];

/** The order in which jobs were first claimed, from the audit ledger. */
const claimOrder = (c: Core) =>
  (
    c.db.sqlite.prepare(`SELECT job_id FROM audit_events WHERE event = 'claimed' GROUP BY job_id ORDER BY min(id)`).all() as {
      job_id: number;
    }[]
  ).map((r) => r.job_id);

describe('photos in view', () => {
  it("runs the jobs of the photos on screen before the rest of the import's", async () => {
    const dir = await folderOf(40);
    core = openTestCore({ concurrency: 1, runner: { paused: true } });
    const grid = await importPaused(core, dir);
    expect(grid).toHaveLength(40);
    // The first screenful of the grid is the end of the queue: left alone it would be read last.
    const onScreen = grid.slice(0, 6).map((p) => p.id);
    const jobIds = onScreen.map((id) => metadataJobOf(core!, id).id);
    const allJobs = grid.map((p) => metadataJobOf(core!, p.id).id).sort((a, b) => a - b);
    expect(allJobs.slice(-6).sort()).toEqual([...jobIds].sort());

    expect(await core.dispatch('photos.inView', { ids: onScreen })).toEqual({ ok: true, value: { prioritized: 6 } });
    expect(core.jobs.queries.get(jobIds[0])!.priority).toBe(IN_VIEW_PRIORITY);

    // Scrolled on: the first six go back to their turn, the next six go first.
    const next = grid.slice(6, 12).map((p) => p.id);
    core.jobs.inView(next);
    expect(core.jobs.queries.get(jobIds[0])!.priority).toBe(0);
    const nextJobs = next.map((id) => metadataJobOf(core!, id).id);
    expect(nextJobs.map((id) => core!.jobs.queries.get(id)!.priority)).toEqual(new Array(6).fill(IN_VIEW_PRIORITY));

    core.runner!.setPaused(false);
    await waitFor(() => core!.jobs.counts().success === 40, 60_000, 'every metadata job');
    expect(claimOrder(core).slice(0, 6).sort()).toEqual([...nextJobs].sort());
  });

  it('never lowers a priority someone chose, and raises only queued jobs', async () => {
    core = openTestCore({ concurrency: 1, runner: { paused: true } });
    const grid = await importPaused(core, await folderOf(3));
    const urgent = core.jobs.enqueue({ type: 'ocr', payload: { photoId: grid[0].id }, priority: 90 }).job;
    core.jobs.inView([grid[0].id]);
    core.jobs.inView([]);
    expect(core.jobs.queries.get(urgent.id)!.priority).toBe(90);
    expect(core.jobs.queries.get(metadataJobOf(core, grid[0].id).id)!.priority).toBe(0);
  });

  it("tells a tile its photo's job state: queued, being read, cancelled", async () => {
    core = openTestCore({ concurrency: 1, runner: { paused: true } });
    const grid = await importPaused(core, await folderOf(2));
    const [a, b] = grid;
    const summary = (id: number) => core!.photos.list({ sort: 'imported', filter: 'all', ids: [id], limit: 1 }).items[0];
    expect(summary(a.id)).toMatchObject({ metadataStatus: 'pending', metadataJob: { status: 'queued', errorMessage: null } });

    // Cancelled: the tile must not say "Reading…" for ever.
    const job = metadataJobOf(core, a.id);
    core.jobs.cancel(job.id);
    expect(summary(a.id)).toMatchObject({ metadataStatus: 'pending', metadataJob: { id: job.id, status: 'cancelled' } });

    core.runner!.setPaused(false);
    await waitForStatus(core, metadataJobOf(core, b.id).id, ['success']);
    // Read: the job no longer matters to the tile.
    expect(summary(b.id)).toMatchObject({ metadataStatus: 'ready', metadataJob: null });
  });
});
