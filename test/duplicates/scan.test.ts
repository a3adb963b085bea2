/**
 * The `duplicate_scan` job through the real runtime (worker processes, checkpoints, SQLite):
 * copies of corpus photos are found after an import without anyone asking, a later import is
 * compared without rescanning the library, photos hashed by the old method are re-hashed first,
 * and a scan in many small steps finds exactly the pairs a brute-force comparison finds, also
 * after being cancelled half-way.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { HASHES_PER_PHOTO, PHOTO_HASH_METHOD, photoDistance } from '../../src/shared/duplicates/hash-set';
import { duplicateScanJob, type StepSizes } from '../../src/main/duplicates/scan-job';
import { DuplicateStore } from '../../src/main/duplicates/duplicate-store';
import { PhotoHashStore } from '../../src/main/duplicates/photo-hash-store';
import type { MainHalf } from '../../src/main/jobs/registry';
import type { AnyJobType } from '../../src/shared/jobs/define';
import { openTestCore, sourceSpawner, tempDir, waitFor, waitForStatus } from '../support/core';
import { CORPUS } from '../support/duplicate-variants';
import { addPhoto, importAndSettle, photoWords, proposedByName, rng, scan, setHashes, writeCopies } from '../support/duplicates';

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

/** The statement of the duplicates migration that gives photos from before it a row by the old method. */
function migrationsUpgradeRows(): string {
  const file = fs.readdirSync('migrations').find((f) => f.endsWith('_duplicates.sql'))!;
  const statements = fs.readFileSync(path.join('migrations', file), 'utf8').split('--> statement-breakpoint');
  return statements.find((st) => st.includes('INSERT INTO photo_hashes'))!;
}

const jpg = (name: string) => path.join(CORPUS, 'jpg/exif-org', name);
const scans = (c: Core) => c.jobs.queries.list({ types: ['duplicate_scan'], limit: 50 }).rows;

/** The scan half with small steps, so a few dozen photos take many checkpoints; counts the steps and can hook them. */
function smallSteps(c: Core, sizes: StepSizes, beforeStep: (job: { attempt: number; phase?: string }) => void = () => {}) {
  const steps = { count: 0 };
  const half = duplicateScanJob(
    {
      hashes: new PhotoHashStore(c.db.sqlite),
      duplicates: new DuplicateStore(c.db.sqlite),
      libraryDir: c.paths.dir,
      onPhotosChanged: () => {},
    },
    sizes,
  );
  const counted: typeof half = {
    load: (job, main) => {
      steps.count++;
      beforeStep({ attempt: job.attempt, phase: job.payload.cursor?.phase });
      return half.load(job, main);
    },
    apply: (out, job) => half.apply(out, job),
  };
  c.jobs.registry.replaceHalf('duplicate_scan', counted as unknown as MainHalf<AnyJobType>);
  return steps;
}

/** `n` photos with chosen hashes, a third of them near copies of another; the pairs brute force finds. */
function seedLibrary(c: Core, n: number): string[] {
  const next = rng(7);
  const photos: { id: number; words: Uint32Array }[] = [];
  for (let i = 0; i < n; i++) {
    // Every third photo is a copy of an earlier one, a few bits off; the rest are unrelated.
    const like = i % 3 === 2 ? photos[Math.floor(next() % photos.length)].words : undefined;
    const words = photoWords(next, like, 1 + (next() % 4));
    const id = addPhoto(c);
    setHashes(c, id, words);
    photos.push({ id, words });
  }
  const expected: string[] = [];
  for (let i = 0; i < photos.length; i++)
    for (let j = i + 1; j < photos.length; j++)
      if (photoDistance(photos[i].words, 0, photos[j].words, 0).distance <= 6) expected.push(`${photos[i].id}-${photos[j].id}`);
  expect(expected.length).toBeGreaterThan(n / 4);
  return expected.sort();
}

const found = (c: Core) =>
  (c.db.sqlite.prepare(`SELECT photo_lo || '-' || photo_hi FROM duplicate_pairs`).pluck().all() as string[]).sort();

describe('duplicate_scan', () => {
  it('finds the copies of each photograph after an import, then compares only what a later import adds', async () => {
    core = openTestCore();
    const first = await writeCopies([
      { file: jpg('canon-ixus.jpg'), name: 'ixus', transforms: ['original', 'resize', 'greyscale', 'border'] },
      { file: jpg('nikon-e950.jpg'), name: 'nikon', transforms: ['original', 'reencode'] },
      { file: jpg('sony-d700.jpg'), name: 'sony', transforms: ['original'] },
    ]);
    await importAndSettle(core, first);
    // Nobody asked: the scheduler starts a scan once the new photos' hashes stop arriving.
    const auto = await waitFor(() => scans(core!).find((j) => j.status === 'success'), 60_000, 'an automatic scan');
    expect(auto.result_summary).toMatch(/^7 photos compared; 7 new pairs to review$/);
    expect(proposedByName(core)).toEqual([
      'ixus-border.jpg|ixus-greyscale.jpg',
      'ixus-border.jpg|ixus-original.jpg',
      'ixus-border.jpg|ixus-resize.jpg',
      'ixus-greyscale.jpg|ixus-original.jpg',
      'ixus-greyscale.jpg|ixus-resize.jpg',
      'ixus-original.jpg|ixus-resize.jpg',
      'nikon-original.jpg|nikon-reencode.jpg',
    ]);

    // A later import: only the two new photos are compared (with each other and the library).
    const second = await writeCopies([{ file: jpg('sony-d700.jpg'), name: 'sony', transforms: ['brightened', 'crop5'] }]);
    await importAndSettle(core, second);
    const later = await waitFor(
      () => scans(core!).find((j) => j.status === 'success' && j.id !== auto.id),
      60_000,
      'the second automatic scan',
    );
    expect(later.result_summary).toBe('2 photos compared; 3 new pairs to review');
    expect(proposedByName(core).filter((p) => p.startsWith('sony'))).toEqual([
      'sony-brightened.jpg|sony-crop5.jpg',
      'sony-brightened.jpg|sony-original.jpg',
      'sony-crop5.jpg|sony-original.jpg',
    ]);
    // Nothing is left to compare: a scan now compares nothing.
    expect((await scan(core)).result_summary).toBe('0 photos compared; no new duplicates');
  });

  it('re-hashes photos hashed by an older method from their thumbnails before comparing, by itself after an upgrade', async () => {
    const libraryDir = tempDir();
    core = openTestCore({ libraryDir });
    const dir = await writeCopies([{ file: jpg('fujifilm-dx10.jpg'), name: 'fuji', transforms: ['original', 'resize'] }]);
    await importAndSettle(core, dir);
    const first = await waitFor(() => scans(core!).find((j) => j.status === 'success'), 60_000, 'the automatic scan');
    const fresh = core.db.sqlite.prepare('SELECT photo_id, hashes FROM photo_hashes ORDER BY photo_id').all() as {
      photo_id: number;
      hashes: Buffer;
    }[];
    // A library from before duplicates, as the duplicates migration leaves it: rows by method 1, only the old whole-image pHash.
    core.db.sqlite.exec(`DELETE FROM photo_hashes; DELETE FROM duplicate_pairs; UPDATE photos SET phash = '0123456789abcdef'`);
    core.db.sqlite.exec(migrationsUpgradeRows());
    // Finding them reads only rows by an older method, never the whole library.
    const plan = new PhotoHashStore(core.db.sqlite).rehashPlan();
    expect(plan.join(' | ')).toMatch(/(SCAN|SEARCH) h USING INDEX photo_hashes_older_idx.*SEARCH p USING INTEGER PRIMARY KEY/);
    // Opened by this version, the library catches up without anyone asking.
    await core.close();
    core = openTestCore({ libraryDir });
    const job = await waitFor(
      () => scans(core!).find((j) => j.id > first.id && j.status === 'success'),
      60_000,
      'a scan after the upgrade',
    );
    expect(job.result_summary).toBe('2 re-hashed; 2 photos compared; 1 new pairs to review');
    const rehashed = core.db.sqlite.prepare('SELECT photo_id, method, hashes FROM photo_hashes ORDER BY photo_id').all() as {
      photo_id: number;
      method: number;
      hashes: Buffer;
    }[];
    expect(rehashed.map((r) => r.method)).toEqual([PHOTO_HASH_METHOD, PHOTO_HASH_METHOD]);
    expect(core.db.sqlite.prepare(`SELECT count(*) FROM photos WHERE phash = '0123456789abcdef'`).pluck().get()).toBe(0);
    // From the thumbnail (a JPEG of the same pixels) the hashes are within a few bits of the originals.
    const words = (b: Buffer) => new Uint32Array(new Uint8Array(b).buffer);
    for (const [i, r] of rehashed.entries()) {
      expect(photoDistance(words(r.hashes), 0, words(fresh[i].hashes), 0).distance).toBeLessThanOrEqual(2);
    }
    expect(proposedByName(core)).toEqual(['fuji-original.jpg|fuji-resize.jpg']);
  });

  it('counts hashes written in the millisecond its loading or update starts as loaded (a scan straight after a re-hash keeps its pairs)', async () => {
    core = openTestCore();
    const store = new PhotoHashStore(core.db.sqlite);
    const half = duplicateScanJob({
      hashes: store,
      duplicates: new DuplicateStore(core.db.sqlite),
      libraryDir: core.paths.dir,
      onPhotosChanged: () => {},
    });
    const stamps = core.db.sqlite.prepare('SELECT max(updated_at) FROM photo_hashes').pluck();
    const next = rng(3);
    const cursor = { afterId: 0, startedAt: 0, attempt: 1, holds: 0, rehashed: 0, compared: 0, pairs: 0, total: 0 };
    // Many tries: each writes hashes and starts a copy (or its update) at once, as a re-hash step and the next step do.
    for (let i = 0; i < 50; i++) {
      const phase = i % 2 ? ('load' as const) : ('sync' as const);
      setHashes(core, addPhoto(core), photoWords(next));
      const payload = { maxDistance: 6, cursor: { ...cursor, phase, copyBase: 1 } };
      const input = await half.load({ id: 1, attempt: 1, subject: null, payload }, undefined as never);
      expect(input.kind).toBe(phase);
      if (input.plan.phase !== phase) throw new Error(`not a ${phase}`);
      // Every hash read into the worker's copy is older than its start, so its pairs are kept.
      expect(input.plan.startedAt).toBeGreaterThan(stamps.get() as number);
    }
  });

  it('in many small steps finds exactly the pairs brute force finds; a cancelled scan leaves nothing half-done', async () => {
    // Steps: the library goes to the worker 5 photos at a time, then is compared 7 at a time.
    core = openTestCore({ concurrency: 1 });
    const steps = smallSteps(core, { chunk: 7, page: 5, rehash: 3 });
    const expected = seedLibrary(core, 60);

    // Cancel after the first checkpoints: what committed stays, nothing is marked scanned that was not compared.
    const { job } = core.jobs.enqueue({ type: 'duplicate_scan', payload: {} });
    await waitFor(() => (core!.jobs.queries.get(job.id)!.progress ?? 0) > 0.2, 60_000, 'a few steps');
    core.jobs.cancel(job.id);
    await waitForStatus(core, job.id, ['cancelled', 'success']);
    const marked = core.db.sqlite
      .prepare('SELECT count(*) FROM photo_hashes WHERE scanned_distance IS NOT NULL')
      .pluck()
      .get() as number;
    expect(marked).toBeLessThan(60);
    expect(found(core).every((p) => expected.includes(p))).toBe(true);
    const before = found(core).length;

    // The next scan takes it from there, in many steps of one attempt; the worker kept its copy
    // of the library, and is sent only what changed since (nothing).
    steps.count = 0;
    const done = await scan(core);
    expect(done.status).toBe('success');
    expect(found(core)).toEqual(expected);
    expect(core.db.sqlite.prepare('SELECT count(*) FROM photo_hashes WHERE scanned_distance = 6').pluck().get()).toBe(60);
    expect(done.attempt).toBe(1);
    expect(done.result_summary).toBe(`${60 - marked} photos compared; ${expected.length - before} new pairs to review`);
    // Asked what it holds, updated, then the rest compared 7 at a time.
    expect(steps.count).toBe(2 + Math.ceil((60 - marked) / 7));
  });

  it('a worker killed mid-scan: the next attempt hands the library over again and finds the same pairs', async () => {
    const pids: number[] = [];
    const spawn = sourceSpawner();
    core = openTestCore({
      concurrency: 1,
      spawn: (opts) => {
        const worker = spawn(opts);
        if (worker.pid) pids.push(worker.pid);
        return worker;
      },
    });
    let killed = 0;
    smallSteps(core, { chunk: 7, page: 5, rehash: 3 }, (job) => {
      // Once comparing has begun, the worker holding the copy dies (once).
      if (job.phase !== 'compare' || killed) return;
      killed = pids[pids.length - 1];
      process.kill(killed, 'SIGKILL');
    });
    const expected = seedLibrary(core, 40);
    const done = await scan(core);
    expect(killed).toBeGreaterThan(0);
    expect(done).toMatchObject({ status: 'success', attempt: 2 });
    expect(found(core)).toEqual(expected);
    expect(core.db.sqlite.prepare('SELECT count(*) FROM photo_hashes WHERE scanned_distance = 6').pluck().get()).toBe(40);
  });

  it('never proposes a pair again once it was ruled out, and drops unreviewed pairs when a photo gets new hashes', async () => {
    core = openTestCore();
    const next = rng(11);
    const a = addPhoto(core, 'a.jpg');
    const b = addPhoto(core, 'b.jpg');
    const c = addPhoto(core, 'c.jpg');
    const wa = photoWords(next);
    setHashes(core, a, wa);
    setHashes(core, b, photoWords(next, wa, 2));
    setHashes(core, c, photoWords(next, wa, 3));
    await scan(core);
    expect(proposedByName(core)).toEqual(['a.jpg|b.jpg', 'a.jpg|c.jpg', 'b.jpg|c.jpg']);
    core.duplicates.notSame([a], [b]);
    // A scan at a larger distance compares everything again; the ruled-out pair stays ruled out.
    await scan(core, { maxDistance: 8 });
    expect(proposedByName(core)).toEqual(['a.jpg|c.jpg', 'b.jpg|c.jpg']);
    expect(new DuplicateStore(core.db.sqlite).pair(a, b)).toMatchObject({ status: 'different' });
    // c is re-read and looks like nothing else now: its pairs go, and the next scan finds none for it.
    setHashes(core, c, photoWords(next));
    expect(proposedByName(core)).toEqual([]);
    await scan(core);
    expect(proposedByName(core)).toEqual([]);
    expect(HASHES_PER_PHOTO).toBe(7);
  });
});
