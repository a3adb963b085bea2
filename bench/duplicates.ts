/**
 * Duplicate benchmark (`npm run bench -- duplicates [--photos N] [--new N] [--rounds N]`).
 *
 * Hashes: N photo-like hash sets (default 100,000). Distinct photos' pHashes are nearly
 * independent fair bits (measured on the corpus: mean distance 31.3, sd 4.1 — a binomial(64, ½)
 * has 32 and 4), so each photo's whole-image hash is random with the DC bit set; 80 % have no
 * border (content hash = whole) and the rest a different content hash; centre and corner hashes
 * are the content hash with each bit flipped at 10 % (as a crop moves them, ~6 bits); every 50th
 * photo is a copy of the one before with a bit or two flipped in each hash.
 *
 *  1. The index alone, in this process, on the same hashes, in paired rounds of alternating order:
 *     a full scan of N photos by multi-index hashing (the scan's index) against brute force
 *     (every pair compared), on the whole-image hash — the pair sets must be identical; then
 *     the scan's real work (all seven hashes, 13 pairs of kinds) by the index; a BK-tree for the
 *     same whole-image hashes (timed on 1,000 queries: it is too slow for all); and --new (1,000)
 *     new photos searched against the N-photo index (filing the N photos timed apart).
 *  2. The `duplicate_scan` job through the runtime (a worker process, checkpointed steps, SQLite):
 *     a full scan of the N photos, then --new photos added and scanned incrementally; with the
 *     longest `load` and `apply` (main's share of a step) and the number of steps.
 *
 * The last line is `RESULT {…}`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openCore, type Core } from '../src/main/core/core';
import { forkWorkerSpawner } from '../src/main/jobs/fork-worker';
import { appPaths } from '../src/main/app-paths';
import type { MainHalf } from '../src/main/jobs/registry';
import type { AnyJobType } from '../src/shared/jobs/define';
import { HASHES_PER_PHOTO, hashesToBlob, hashesToHex, popcount32 } from '../src/shared/duplicates/hash-set';
import { HashIndex } from '../src/worker/duplicates/hash-index';
import { PhotoIndex, findPairs, queriesOf } from '../src/worker/duplicates/find-pairs';
import { BkTree } from './_bk-tree';
import { arg, round, sleep } from './_util';
import { rng } from '../test/support/duplicates';

const WORDS = 2 * HASHES_PER_PHOTO;
const D = 6;

/** Photo-like hash sets (see the header). */
function makeHashes(n: number, seed: number): Uint32Array {
  const next = rng(seed);
  const noise = () => {
    let m = 0;
    for (let b = 0; b < 32; b++) if (next() < 0.1 * 2 ** 32) m |= 1 << b;
    return m >>> 0;
  };
  const w = new Uint32Array(n * WORDS);
  for (let i = 0; i < n; i++) {
    const o = i * WORDS;
    if (i % 50 === 49) {
      for (let k = 0; k < WORDS; k++) w[o + k] = (w[o - WORDS + k] ^ (k % 2 ? 1 << (next() % 32) : 0)) >>> 0;
      continue;
    }
    w[o] = (next() | 0x80000000) >>> 0;
    w[o + 1] = next();
    const bordered = next() % 5 === 0;
    w[o + 2] = bordered ? (next() | 0x80000000) >>> 0 : w[o];
    w[o + 3] = bordered ? next() : w[o + 1];
    for (let k = 2; k < HASHES_PER_PHOTO; k++) {
      w[o + 2 * k] = (w[o + 2] ^ noise()) >>> 0;
      w[o + 2 * k + 1] = (w[o + 3] ^ noise()) >>> 0;
    }
  }
  return w;
}

interface Stat {
  median: number;
  min: number;
  max: number;
}
const stat = (xs: number[]): Stat => {
  const s = [...xs].sort((a, b) => a - b);
  return { median: round(s[Math.floor(s.length / 2)], 1), min: round(s[0], 1), max: round(s[s.length - 1], 1) };
};
const show = (s: Stat, unit = 'ms') => `${s.median} ${unit} (${s.min}–${s.max})`;
const timed = <T>(fn: () => T): [T, number] => {
  const t0 = performance.now();
  const out = fn();
  return [out, performance.now() - t0];
};

function wholeImage(words: Uint32Array, n: number) {
  const hi = new Uint32Array(n);
  const lo = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    hi[i] = words[i * WORDS];
    lo[i] = words[i * WORDS + 1];
  }
  return { hi, lo };
}

function bruteForce(hi: Uint32Array, lo: Uint32Array): string[] {
  const out: string[] = [];
  for (let i = 0; i < hi.length; i++) {
    const a = hi[i];
    const b = lo[i];
    for (let j = i + 1; j < hi.length; j++) {
      if (popcount32((a ^ hi[j]) >>> 0) + popcount32((b ^ lo[j]) >>> 0) <= D) out.push(`${i}-${j}`);
    }
  }
  return out;
}

function indexed(hi: Uint32Array, lo: Uint32Array): string[] {
  const index = new HashIndex(hi, lo);
  const out: string[] = [];
  for (let i = 0; i < hi.length; i++) index.within(hi[i], lo[i], D, (e) => e > i && out.push(`${i}-${e}`));
  return out;
}

function indexRounds(n: number, fresh: number, rounds: number) {
  const words = makeHashes(n + fresh, 1);
  const { hi, lo } = wholeImage(words, n);
  const brute: number[] = [];
  const mih: number[] = [];
  let same = true;
  let pairs = 0;
  for (let r = 0; r < rounds; r++) {
    // Alternate which goes first: a shared machine drifts.
    const order = r % 2 ? (['mih', 'brute'] as const) : (['brute', 'mih'] as const);
    const results: Record<string, string[]> = {};
    for (const which of order) {
      const [found, ms] = timed(() => (which === 'brute' ? bruteForce(hi, lo) : indexed(hi, lo)));
      (which === 'brute' ? brute : mih).push(ms);
      results[which] = found;
      console.log(`  round ${r + 1}: ${which === 'brute' ? 'brute force' : 'index'} ${round(ms, 0)} ms, ${found.length} pairs`);
    }
    same &&= results.brute.sort().join() === results.mih.sort().join();
    pairs = results.mih.length;
  }
  const ids = Int32Array.from({ length: n }, (_, i) => i + 1);
  const library = { ids, words: words.subarray(0, n * WORDS) };
  const allKinds: number[] = [];
  let allPairs = 0;
  const filing: number[] = [];
  const searching: number[] = [];
  const newWords = words.subarray(n * WORDS);
  for (let r = 0; r < rounds; r++) {
    const [found, ms] = timed(() => findPairs(library, null, { maxDistance: D, maxPerPhoto: 50 }));
    allKinds.push(ms);
    allPairs = found.length;
    // New photos against the library: filing the library in the index, then the searches.
    const [index, build] = timed(() => new PhotoIndex(library));
    filing.push(build);
    searching.push(
      timed(() => {
        const newPhotos = { ids: Int32Array.from({ length: fresh }, (_, p) => n + p + 1), words: newWords };
        index.search(
          queriesOf(newPhotos, () => n),
          D,
          50,
        );
      })[1],
    );
  }
  // BK-tree: built on all, searched by 1,000 (enough to see its cost per query).
  const [bk, bkBuild] = timed(() => new BkTree(hi, lo));
  const q = Math.min(1000, n);
  const [, bkQueries] = timed(() => {
    for (let i = 0; i < q; i++) bk.within(hi[i], lo[i], D, () => {});
  });
  return {
    wholeImage: {
      bruteMs: stat(brute),
      indexMs: stat(mih),
      speedup: round(stat(brute).median / stat(mih).median, 0),
      pairs,
      samePairs: same,
    },
    allHashes: { indexMs: stat(allKinds), pairs: allPairs },
    newPhotos: { fileLibraryMs: stat(filing), searchMs: stat(searching) },
    bkTree: {
      buildMs: round(bkBuild, 0),
      msPerQuery: round(bkQueries / q, 3),
      visitedShare: round(bk.visited / q / n, 3),
      estimatedScanMs: round(bkBuild + (bkQueries / q) * n, 0),
    },
  };
}

// ---------------------------------------------------------------- the job through the runtime

function spawner() {
  const paths = appPaths();
  return fs.existsSync(paths.builtWorkerEntry)
    ? { spawn: forkWorkerSpawner(paths.builtWorkerEntry), from: 'built worker' }
    : { spawn: forkWorkerSpawner(paths.sourceWorkerEntry, ['--import', 'tsx']), from: 'worker from source (tsx)' };
}

function seed(core: Core, words: Uint32Array, from: number, to: number): void {
  const photo = core.db.sqlite.prepare(
    `INSERT INTO photos (id, sha256, path, filename, size, metadata_status, imported_at, updated_at)
     VALUES (?, ?, ?, ?, 1, 'ready', 0, 0)`,
  );
  const hashes = core.db.sqlite.prepare(`INSERT INTO photo_hashes (photo_id, method, hashes, updated_at) VALUES (?, 2, ?, 0)`);
  core.db.immediate(() => {
    for (let i = from; i < to; i++) {
      const id = i + 1;
      photo.run(id, id.toString(16).padStart(64, '0'), `/bench/${id}.jpg`, `${id}.jpg`);
      hashes.run(id, Buffer.from(hashesToBlob(hashesToHex(words, i * WORDS))));
    }
  });
}

async function jobRounds(n: number, fresh: number, rounds: number) {
  const { spawn, from } = spawner();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-bench-dupes-'));
  const core = openCore({ libraryDir: dir, mode: 'headless', spawn, concurrency: 1 });
  const words = makeHashes(n + fresh, 1);
  seed(core, words, 0, n);
  // Main's share of each step: the type's load and apply, timed where they run.
  const registered = core.jobs.registry.get('duplicate_scan')!;
  const main = { load: [] as number[], apply: [] as number[], cpu: 0 };
  const half = registered.half;
  // Wall time (on a busy machine it includes waiting for a core) and CPU time of main's share.
  const measured = <T>(into: number[], fn: () => T): T => {
    const before = process.cpuUsage();
    const [out, ms] = timed(fn);
    const used = process.cpuUsage(before);
    main.cpu = Math.max(main.cpu, (used.user + used.system) / 1000);
    into.push(ms);
    return out;
  };
  core.jobs.registry.replaceHalf('duplicate_scan', {
    load: (job, ctx) => measured(main.load, () => half.load(job, ctx)),
    apply: (out, job) => measured(main.apply, () => half.apply(out, job)),
  } as MainHalf<AnyJobType>);
  const run = async () => {
    main.load.length = main.apply.length = main.cpu = 0;
    const t0 = performance.now();
    const { job } = core.jobs.enqueue({ type: 'duplicate_scan', payload: {} });
    for (;;) {
      const row = core.jobs.queries.get(job.id)!;
      if (row.status === 'success') break;
      if (row.status !== 'queued' && row.status !== 'running') throw new Error(`scan ${row.status}: ${row.error_message}`);
      await sleep(5);
    }
    return {
      ms: performance.now() - t0,
      steps: main.load.length,
      load: Math.max(...main.load),
      apply: Math.max(...main.apply),
      cpu: main.cpu,
    };
  };
  const full: Awaited<ReturnType<typeof run>>[] = [];
  const incremental: Awaited<ReturnType<typeof run>>[] = [];
  seed(core, words, n, n + fresh);
  const newIds = `photo_id > ${n}`;
  for (let r = 0; r < rounds; r++) {
    core.db.sqlite.exec(`UPDATE photo_hashes SET scanned_distance = NULL; DELETE FROM duplicate_pairs;`);
    // The full scan covers the library without the new photos; they come after.
    core.db.sqlite.exec(`UPDATE photo_hashes SET method = 1 WHERE ${newIds}`);
    full.push(await run());
    core.db.sqlite.exec(`UPDATE photo_hashes SET method = 2 WHERE ${newIds}`);
    incremental.push(await run());
    console.log(`  round ${r + 1}: full scan ${round(full[r].ms, 0)} ms, ${fresh} new ${round(incremental[r].ms, 0)} ms`);
  }
  const pairs = core.db.sqlite.prepare('SELECT count(*) FROM duplicate_pairs').pluck().get() as number;
  await core.close();
  fs.rmSync(dir, { recursive: true, force: true });
  const summary = (runs: typeof full) => ({
    ms: stat(runs.map((x) => x.ms)),
    steps: runs[0].steps,
    longestLoadMs: round(Math.max(...runs.map((x) => x.load)), 1),
    longestApplyMs: round(Math.max(...runs.map((x) => x.apply)), 1),
    longestStepCpuMs: round(Math.max(...runs.map((x) => x.cpu)), 1),
  });
  return { worker: from, full: summary(full), incremental: summary(incremental), pairs };
}

export async function run(args: string[]): Promise<void> {
  const n = arg(args, 'photos', 100_000);
  const fresh = arg(args, 'new', 1_000);
  const rounds = arg(args, 'rounds', 3);
  console.log(`Duplicates: ${n.toLocaleString()} photos, ${fresh.toLocaleString()} new, distance ≤ ${D}, ${rounds} rounds`);
  console.log('1. The index alone (this process):');
  const index = indexRounds(n, fresh, rounds);
  console.log('2. The duplicate_scan job (worker process, checkpointed steps, SQLite):');
  const job = await jobRounds(n, fresh, rounds);
  const w = index.wholeImage;
  console.log(
    [
      '',
      `| measure | median (min–max) |`,
      `| --- | --- |`,
      `| brute force, whole-image hash, ${n.toLocaleString()} photos (every pair) | ${show(w.bruteMs)} |`,
      `| index, the same hashes (same ${w.pairs} pairs: ${w.samePairs ? 'yes' : 'NO'}) | ${show(w.indexMs)} — ${w.speedup}× faster |`,
      `| index, all seven hashes (13 pairs of kinds), ${n.toLocaleString()} photos | ${show(index.allHashes.indexMs)} |`,
      `| index: filing ${n.toLocaleString()} photos (seven hashes each) | ${show(index.newPhotos.fileLibraryMs)} |`,
      `| index: ${fresh.toLocaleString()} new photos searched against them | ${show(index.newPhotos.searchMs)} |`,
      `| BK-tree, whole-image hash: per query (visits ${Math.round(index.bkTree.visitedShare * 100)} % of the tree) | ${index.bkTree.msPerQuery} ms → ~${index.bkTree.estimatedScanMs} ms for a full scan |`,
      `| job: full scan of ${n.toLocaleString()} (${job.full.steps} steps) | ${show(job.full.ms)} |`,
      `| job: ${fresh.toLocaleString()} new photos against the library (${job.incremental.steps} steps) | ${show(job.incremental.ms)} |`,
      `| job: longest main-thread load / apply of a step (wall) | ${Math.max(job.full.longestLoadMs, job.incremental.longestLoadMs)} ms / ${Math.max(job.full.longestApplyMs, job.incremental.longestApplyMs)} ms |`,
      `| job: most CPU main spent on one load or apply | ${Math.max(job.full.longestStepCpuMs, job.incremental.longestStepCpuMs)} ms |`,
    ].join('\n'),
  );
  console.log(`RESULT ${JSON.stringify({ photos: n, newPhotos: fresh, rounds, maxDistance: D, index, job })}`);
}
