/**
 * The WAL stays bounded under sustained work. With automatic checkpoints off and only PASSIVE
 * checkpoints running beside a busy writer, no checkpoint ever completes, the WAL is never
 * restarted, and it grows for as long as the work goes on (12,000 photos once left a 573 MB WAL
 * beside a 26 MB database).
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { WAL_LIMITS } from '../../src/main/db/checkpointer';
import { openTestCore, tempDir, waitFor } from '../support/core';

/** `n` tiny distinct JPEGs: a comment segment makes each file's bytes (and hash) unique. */
async function tinyPhotos(n: number): Promise<string> {
  const dir = tempDir('circa-wal-photos-');
  const base = await sharp({ create: { width: 32, height: 24, channels: 3, background: '#7a6a5a' } })
    .jpeg()
    .toBuffer();
  for (let i = 0; i < n; i++) {
    const comment = Buffer.from(`wal test ${i}`);
    const seg = Buffer.from([0xff, 0xfe, (comment.length + 2) >> 8, (comment.length + 2) & 0xff]);
    fs.writeFileSync(path.join(dir, `p${i}.jpg`), Buffer.concat([base.subarray(0, 2), seg, comment, base.subarray(2)]));
  }
  return dir;
}

describe('the WAL under sustained work', () => {
  it('stays under its limit through an import and its metadata jobs, and is folded back when the work stops', async () => {
    const n = Number(process.env.CIRCA_WAL_TEST_PHOTOS ?? 1500);
    const dir = await tinyPhotos(n);
    const core = openTestCore({ concurrency: 2 });
    const wal = core.paths.dbFile + '-wal';
    const walSize = () => (fs.existsSync(wal) ? fs.statSync(wal).size : 0);
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, walSize())), 10);
    try {
      core.importer.start([dir]);
      await waitFor(
        () => {
          const s = core.runner!.getStats();
          return core.importer.status()?.status === 'done' && s.succeeded + s.failed >= n;
        },
        240_000,
        'the import and its metadata jobs',
      );
      clearInterval(sampler);
      expect(core.photos.list({ sort: 'imported', filter: 'all', limit: 1 }).total).toBe(n);
      expect(peak, `WAL peak ${(peak / 1e6).toFixed(1)} MB over ${n} photos`).toBeLessThanOrEqual(WAL_LIMITS.hardBytes);
      // Idle now: the checkpointer folds the WAL back into the database and truncates it.
      await waitFor(() => walSize() === 0, 10_000, 'the WAL to be truncated once work stops');
    } finally {
      clearInterval(sampler);
      await core.close();
    }
  }, 300_000);
});
