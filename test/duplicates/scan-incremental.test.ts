/**
 * The workers keep their copy of the library's hashes between duplicate scans (issue 31 item 5),
 * through the real runtime (worker processes, checkpoints, SQLite): a later scan sends the worker
 * only the rows that changed, and finds exactly the pairs a scan of everything from scratch finds
 * — after photos are added, after a photo gets new hashes, after a photo is removed (the copy is
 * told which photos remain), and after the worker holding the copy died between scans.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { photoDistance } from '../../src/shared/duplicates/hash-set';
import type { DuplicateScanInput } from '../../src/shared/jobs/outputs/duplicate-scan';
import { duplicateScanJob } from '../../src/main/duplicates/scan-job';
import { DuplicateStore } from '../../src/main/duplicates/duplicate-store';
import { PhotoHashStore } from '../../src/main/duplicates/photo-hash-store';
import type { MainHalf } from '../../src/main/jobs/registry';
import type { AnyJobType } from '../../src/shared/jobs/define';
import { openTestCore, sourceSpawner } from '../support/core';
import { addPhoto, photoWords, rng, scan, setHashes } from '../support/duplicates';

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

/** A core with one worker whose processes can be killed, and the scan's steps recorded by kind. */
function recordedCore() {
  const pids: number[] = [];
  const spawn = sourceSpawner();
  const c = openTestCore({
    concurrency: 1,
    spawn: (opts) => {
      const worker = spawn(opts);
      if (worker.pid) pids.push(worker.pid);
      return worker;
    },
  });
  const steps: DuplicateScanInput[] = [];
  const half = duplicateScanJob(
    {
      hashes: new PhotoHashStore(c.db.sqlite),
      duplicates: new DuplicateStore(c.db.sqlite),
      libraryDir: c.paths.dir,
      onPhotosChanged: () => {},
    },
    { chunk: 16, page: 25, rehash: 10 },
  );
  const recorded: typeof half = {
    load: async (job, main) => {
      const input = await half.load(job, main);
      steps.push(input);
      return input;
    },
    apply: (out, job) => half.apply(out, job),
  };
  c.jobs.registry.replaceHalf('duplicate_scan', recorded as unknown as MainHalf<AnyJobType>);
  return { core: c, steps, killWorker: () => process.kill(pids[pids.length - 1], 'SIGKILL') };
}

/** Adds `n` photos, every third a near copy of a photo already there (new or old). */
function addPhotos(c: Core, n: number, next: () => number): number[] {
  const words = hashesOf(c);
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const olds = [...words.values()];
    const like = i % 3 === 2 && olds.length ? olds[next() % olds.length] : undefined;
    const w = photoWords(next, like, 1 + (next() % 4));
    const id = addPhoto(c);
    setHashes(c, id, w);
    words.set(id, w);
    ids.push(id);
  }
  return ids;
}

function hashesOf(c: Core): Map<number, Uint32Array> {
  const rows = c.db.sqlite
    .prepare('SELECT photo_id, hashes FROM photo_hashes WHERE hashes IS NOT NULL ORDER BY photo_id')
    .all() as {
    photo_id: number;
    hashes: Buffer;
  }[];
  return new Map(rows.map((r) => [r.photo_id, new Uint32Array(new Uint8Array(r.hashes).buffer)]));
}

/** Every pair of the library's photos within distance 6, by brute force over what is stored now. */
function bruteForce(c: Core): string[] {
  const all = [...hashesOf(c)];
  const out: string[] = [];
  for (let i = 0; i < all.length; i++)
    for (let j = i + 1; j < all.length; j++)
      if (photoDistance(all[i][1], 0, all[j][1], 0).distance <= 6) out.push(`${all[i][0]}-${all[j][0]}`);
  return out.sort();
}

const proposed = (c: Core) =>
  (
    c.db.sqlite
      .prepare(`SELECT photo_lo || '-' || photo_hi FROM duplicate_pairs WHERE status = 'proposed'`)
      .pluck()
      .all() as string[]
  ).sort();

/** Stamps every row well before now: written long before the scans (the sync resends only recent rows). */
const ageRows = (c: Core) => c.db.sqlite.prepare('UPDATE photo_hashes SET updated_at = ?').run(Date.now() - 3_600_000);

const kinds = (steps: DuplicateScanInput[]) => [...new Set(steps.map((s) => s.kind))].sort();

describe('duplicate_scan keeps the worker’s copy of the library between scans', () => {
  it('sends only what changed, and finds what a scan of everything from scratch finds: after adding, changing, removing, and a worker’s death', async () => {
    const r = recordedCore();
    core = r.core;
    const next = rng(31);
    addPhotos(core, 90, next);
    ageRows(core);

    // The first scan: the worker holds nothing, so the library is handed over page by page.
    expect((await scan(core)).status).toBe('success');
    expect(kinds(r.steps)).toEqual(['compare', 'load', 'probe']);
    expect(proposed(core)).toEqual(bruteForce(core));
    expect(proposed(core).length).toBeGreaterThan(20);

    // Photos added, and an old one given new hashes (a copy of another now): only those rows go.
    r.steps.length = 0;
    const added = addPhotos(core, 20, next);
    const [changed, like] = [5, 40];
    setHashes(core, changed, photoWords(next, hashesOf(core).get(like), 2));
    expect((await scan(core)).status).toBe('success');
    expect(kinds(r.steps)).toEqual(['compare', 'probe', 'sync']);
    const sync = r.steps.find((s) => s.kind === 'sync')!;
    if (sync.kind !== 'sync') throw new Error('not a sync');
    expect([...sync.changed.ids].sort((a, b) => a - b)).toEqual([changed, ...added].sort((a, b) => a - b));
    expect(proposed(core)).toContain(`${changed}-${like}`);
    expect(proposed(core)).toEqual(bruteForce(core));

    // A photo removed: its row is gone, so the copy holds one photo too many, and is told which remain.
    r.steps.length = 0;
    core.removal.remove([like]);
    addPhotos(core, 5, next);
    expect((await scan(core)).status).toBe('success');
    expect(kinds(r.steps)).toEqual(['compare', 'probe', 'prune', 'sync']);
    expect(proposed(core)).toEqual(bruteForce(core));

    // Once more without a removal: a sync alone.
    r.steps.length = 0;
    ageRows(core);
    addPhotos(core, 4, next);
    expect((await scan(core)).status).toBe('success');
    expect(kinds(r.steps)).toEqual(['compare', 'probe', 'sync']);

    // The worker that held the copy dies between scans: its new process holds none, and gets it all.
    r.steps.length = 0;
    r.killWorker();
    addPhotos(core, 6, next);
    const afterDeath = await scan(core);
    expect(afterDeath.status).toBe('success');
    expect(kinds(r.steps)).toEqual(['compare', 'load', 'probe']);
    const incremental = proposed(core);
    expect(incremental).toEqual(bruteForce(core));

    // The same library scanned from scratch by a fresh worker finds the same pairs.
    r.killWorker();
    core.db.sqlite.exec(`UPDATE photo_hashes SET scanned_distance = NULL; DELETE FROM duplicate_pairs`);
    expect((await scan(core)).status).toBe('success');
    expect(proposed(core)).toEqual(incremental);
  });
});

describe('a compare step’s read of the photos it searches with', () => {
  it('goes through the scan index, not the whole table in id order (a walk of every photo in each step)', () => {
    core = openTestCore({ concurrency: 0 });
    // Two reads (never scanned; scanned at a smaller distance), each through the index; the second
    // sorts what it finds (usually nothing) into id order.
    const reads = new PhotoHashStore(core.db.sqlite).unscannedPlan().filter((step) => step.includes('photo_hashes'));
    expect(reads).toHaveLength(2);
    for (const read of reads)
      expect(read).toMatch(/^SEARCH photo_hashes USING (COVERING )?INDEX photo_hashes_scan_idx \(scanned_distance/);
  });
});
