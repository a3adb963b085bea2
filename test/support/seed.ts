/** Fills a library with photos and evidence quickly (straight SQL, in main's connection), for tests that need volume. */
import crypto from 'node:crypto';
import type { Core } from '../../src/main/core/core';

export function seedPhotos(core: Core, n: number, opts: { evidencePerPhoto?: number; dir?: string } = {}): number[] {
  const insPhoto = core.db.sqlite.prepare(
    `INSERT INTO photos (sha256, path, filename, size, metadata_status, imported_at, updated_at) VALUES (?, ?, ?, 1, 'ready', ?, ?) RETURNING id`,
  );
  const insEv = core.db.sqlite.prepare(
    `INSERT INTO evidence (photo_id, source, kind, earliest, latest, confidence, summary, review_status, created_at, updated_at)
     VALUES (?, 'ocr', 'estimate', ?, ?, 0.8, ?, 'pending', 0, 0)`,
  );
  const ids: number[] = [];
  const dir = opts.dir ?? '/seed';
  core.db.immediate(() => {
    for (let i = 0; i < n; i++) {
      const sha = crypto.createHash('sha256').update(`seed-${i}-${Math.random()}`).digest('hex');
      const id = (insPhoto.get(sha, `${dir}/${i}.tif`, `${i}.tif`, i, i) as { id: number }).id;
      ids.push(id);
      const y = 1900 + (i % 80);
      for (let e = 0; e < (opts.evidencePerPhoto ?? 0); e++)
        insEv.run(id, y * 10000 + 101, y * 10000 + 1231, `Text reads “${y}”`);
    }
  });
  return ids;
}
