/** Photos for duplicate tests: real corpus copies through import, or rows with chosen hashes. */
import fs from 'node:fs';
import path from 'node:path';
import type { Core } from '../../src/main/core/core';
import { HASHES_PER_PHOTO, hashesToHex } from '../../src/shared/duplicates/hash-set';
import { PhotoHashStore } from '../../src/main/duplicates/photo-hash-store';
import { makeVariants, type TransformName } from './duplicate-variants';
import { tempDir, waitFor, waitForStatus } from './core';

let seq = 0;

/** A photo row whose metadata is read (no file behind it): for tests about hashes, pairs and evidence. */
export function addPhoto(core: Core, filename = `photo-${++seq}.jpg`): number {
  const now = Date.now();
  const sha = `${seq.toString(16).padStart(8, '0')}${Math.random().toString(16).slice(2).padEnd(56, '0')}`.slice(0, 64);
  return core.db.sqlite
    .prepare(
      `INSERT INTO photos (sha256, path, filename, size, metadata_status, display_width, display_height, imported_at, updated_at)
       VALUES (?, ?, ?, 1000, 'ready', 640, 480, ?, ?) RETURNING id`,
    )
    .pluck()
    .get(sha, `/nowhere/${filename}`, filename, now, now) as number;
}

/** Stores hashes for a photo as a metadata run would (seven words pairs, see hash-set.ts). */
export function setHashes(core: Core, photoId: number, words: Uint32Array, at = 0): void {
  core.db.immediate(() => new PhotoHashStore(core.db.sqlite).record(photoId, hashesToHex(words, at)));
}

/** A deterministic generator (mulberry32). */
export function rng(seed: number): () => number {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** Seven random hashes, or a copy of `like` with `flips` low bits flipped in each hash. */
export function photoWords(next: () => number, like?: Uint32Array, flips = 0): Uint32Array {
  const w = new Uint32Array(2 * HASHES_PER_PHOTO);
  for (let i = 0; i < w.length; i++) w[i] = like ? (i % 2 ? (like[i] ^ ((1 << flips) - 1)) >>> 0 : like[i]) : next();
  return w;
}

/** Writes copies of corpus photos into a new folder: { 'name-transform.jpg': … }. */
export async function writeCopies(sources: { file: string; name: string; transforms: TransformName[] }[]): Promise<string> {
  const dir = tempDir('circa-dupes-');
  for (const s of sources) {
    const copies = await makeVariants(s.file, s.transforms);
    for (const t of s.transforms) fs.writeFileSync(path.join(dir, `${s.name}-${t}.jpg`), copies[t]);
  }
  return dir;
}

/** Imports a folder and waits for every metadata job. */
export async function importAndSettle(core: Core, dir: string): Promise<void> {
  const started = core.importer.start([dir]);
  await waitFor(
    () => core.importer.status()?.id === started.id && core.importer.status()?.status !== 'running',
    60_000,
    'import',
  );
  await waitFor(
    () => core.photos.list({ sort: 'imported', filter: 'needs_metadata', limit: 1 }).total === 0,
    120_000,
    'metadata',
  );
}

/** Runs a duplicate scan to its end (or returns the one the scheduler started). */
export async function scan(core: Core, payload: Record<string, unknown> = {}) {
  const { job } = core.jobs.enqueue({ type: 'duplicate_scan', payload });
  return waitForStatus(core, job.id, ['success', 'failed', 'cancelled'], 120_000);
}

/** Every proposed pair as "filenameA|filenameB" (sorted), for readable assertions. */
export function proposedByName(core: Core): string[] {
  const rows = core.db.sqlite
    .prepare(
      `SELECT a.filename AS a, b.filename AS b FROM duplicate_pairs p
         JOIN photos a ON a.id = p.photo_lo JOIN photos b ON b.id = p.photo_hi WHERE p.status = 'proposed'`,
    )
    .all() as { a: string; b: string }[];
  return rows.map((r) => [r.a, r.b].sort().join('|')).sort();
}
