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
import type { DuplicateScanInput } from '../src/shared/jobs/outputs/duplicate-scan';
import { HASHES_PER_PHOTO, hashesToBlob, hashesToHex, popcount32 } from '../src/shared/duplicates/hash-set';
import { HashIndex } from '../src/worker/duplicates/hash-index';
import { PhotoIndex, findPairs, queriesOf } from '../src/worker/duplicates/find-pairs';
import { LibraryCopy } from '../src/worker/duplicates/library-copy';
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

/** Reads the library as the scan job stores it: the N photos of `words` with ids 1..N, as one page. */
function asPage(words: Uint32Array, n: number) {
  const blobs = new Uint8Array(n * 8 * HASHES_PER_PHOTO);
  for (let i = 0; i < n; i++) blobs.set(hashesToBlob(hashesToHex(words, i * WORDS)), i * 8 * HASHES_PER_PHOTO);
  return {
    ids: Int32Array.from({ length: n }, (_, i) => i + 1),
    blobs,
    unscanned: Uint8Array.from({ length: n }, (_, i) => (i ? 0 : 1)),
  };
}

/** The bytes a worker's copy of N photos holds once searched (its index built), counted in this process. */
function copyBytes(n: number): number {
  const copy = new LibraryCopy('bench', 0, [asPage(makeHashes(n, 1), n)]);
  copy.search({ fromId: 1, toId: 1, maxDistance: D, maxPerPhoto: 50 });
  return copy.bytes();
}

/** CPU milliseconds a process has used so far (Linux: /proc/<pid>/stat, in clock ticks of 10 ms). */
function cpuOfProcess(pid: number | undefined): number {
  if (!pid) return NaN;
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

async function jobRounds(n: number, fresh: number, rounds: number) {
  const { spawn: spawnWorker, from } = spawner();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-bench-dupes-'));
  // The worker's CPU time as well as the wall time: on a busy host the wall time is mostly waiting for a core.
  let workerPid: number | undefined;
  const spawn: typeof spawnWorker = (opts) => {
    const worker = spawnWorker(opts);
    workerPid = worker.pid;
    return worker;
  };
  const core = openCore({ libraryDir: dir, mode: 'headless', spawn, concurrency: 1 });
  const words = makeHashes(n + fresh, 1);
  seed(core, words, 0, n);
  // Main's share of each step: the type's load and apply, timed where they run.
  const registered = core.jobs.registry.get('duplicate_scan')!;
  const main = { load: [] as number[], apply: [] as number[], cpu: 0 };
  const half = registered.half;
  // Wall time (on a busy machine it includes waiting for a core) and CPU time of main's share.
  const cpuMs = (before: NodeJS.CpuUsage) => {
    const used = process.cpuUsage(before);
    main.cpu = Math.max(main.cpu, (used.user + used.system) / 1000);
  };
  const measured = <T>(into: number[], fn: () => T): T => {
    const before = process.cpuUsage();
    const [out, ms] = timed(fn);
    cpuMs(before);
    into.push(ms);
    return out;
  };
  // A load may wait for the clock (scanStartTime): its time is until its input is ready.
  const measuredAsync = async <T>(into: number[], fn: () => T | Promise<T>): Promise<T> => {
    const before = process.cpuUsage();
    const t0 = performance.now();
    const out = await fn();
    cpuMs(before);
    into.push(performance.now() - t0);
    return out;
  };
  // A worker without a copy of this library (a new or restarted process): its probe names another.
  let withoutCopy = false;
  core.jobs.registry.replaceHalf('duplicate_scan', {
    load: async (job, ctx) => {
      const input = (await measuredAsync(main.load, () => half.load(job, ctx))) as DuplicateScanInput;
      return withoutCopy && input.kind === 'probe' ? { ...input, library: 'another library' } : input;
    },
    apply: (out, job) => measured(main.apply, () => half.apply(out, job)),
  } as MainHalf<AnyJobType>);
  const run = async (fullSend: boolean) => {
    withoutCopy = fullSend;
    main.load.length = main.apply.length = main.cpu = 0;
    const cpu0 = { main: process.cpuUsage(), worker: cpuOfProcess(workerPid) };
    const t0 = performance.now();
    const { job } = core.jobs.enqueue({ type: 'duplicate_scan', payload: {} });
    for (;;) {
      const row = core.jobs.queries.get(job.id)!;
      if (row.status === 'success') break;
      if (row.status !== 'queued' && row.status !== 'running') throw new Error(`scan ${row.status}: ${row.error_message}`);
      await sleep(2);
    }
    const mainCpu = process.cpuUsage(cpu0.main);
    return {
      ms: performance.now() - t0,
      cpuMs: (mainCpu.user + mainCpu.system) / 1000 + cpuOfProcess(workerPid) - cpu0.worker,
      steps: main.load.length,
      load: Math.max(...main.load),
      apply: Math.max(...main.apply),
      cpu: main.cpu,
    };
  };
  type Run = Awaited<ReturnType<typeof run>>;
  const full: Run[] = [];
  const send: Run[] = [];
  const kept: Run[] = [];
  seed(core, words, n, n + fresh);
  const newIds = `photo_id > ${n}`;
  for (let r = 0; r < rounds; r++) {
    // The full scan covers the library without the new photos (by an older method: left out).
    core.db.sqlite.exec(`UPDATE photo_hashes SET scanned_distance = NULL; DELETE FROM duplicate_pairs;`);
    core.db.sqlite.exec(`UPDATE photo_hashes SET method = 1 WHERE ${newIds}`);
    full.push(await run(true));
    core.db.sqlite.exec(`UPDATE photo_hashes SET method = 2 WHERE ${newIds}`);
    // Then the new photos, paired: to a worker that kept its copy, and to one that holds none
    // (the whole library sent again), in alternating order. Each time they arrive anew, as an
    // import's metadata writes them: stamped now, not scanned, no pairs yet.
    const order = r % 2 ? [false, true] : [true, false];
    const times: string[] = [];
    for (const fullSend of order) {
      core.db.sqlite.exec(`DELETE FROM duplicate_pairs WHERE photo_hi > ${n}`);
      core.db.sqlite.prepare(`UPDATE photo_hashes SET scanned_distance = NULL, updated_at = ? WHERE ${newIds}`).run(Date.now());
      const result = await run(fullSend);
      (fullSend ? send : kept).push(result);
      times.push(`${fullSend ? 'whole library sent' : 'copy kept'} ${round(result.ms, 0)} ms (CPU ${round(result.cpuMs, 0)} ms)`);
    }
    const f = full[r];
    console.log(
      `  round ${r + 1}: full scan ${round(f.ms, 0)} ms (CPU ${round(f.cpuMs, 0)} ms); ${fresh} new: ${times.join(', ')}`,
    );
  }
  const pairs = core.db.sqlite.prepare('SELECT count(*) FROM duplicate_pairs').pluck().get() as number;
  await core.close();
  fs.rmSync(dir, { recursive: true, force: true });
  const summary = (runs: Run[]) => ({
    ms: stat(runs.map((x) => x.ms)),
    /** Main's and the worker's CPU time together: what the scan costs without waiting for a core. */
    cpuMs: stat(runs.map((x) => x.cpuMs)),
    steps: runs[0].steps,
    longestLoadMs: round(Math.max(...runs.map((x) => x.load)), 1),
    longestApplyMs: round(Math.max(...runs.map((x) => x.apply)), 1),
    longestStepCpuMs: round(Math.max(...runs.map((x) => x.cpu)), 1),
  });
  const ratios = kept.map((k, r) => send[r].ms / k.ms);
  const cpuRatios = kept.map((k, r) => send[r].cpuMs / k.cpuMs);
  return {
    worker: from,
    full: summary(full),
    incrementalWholeLibrarySent: summary(send),
    incremental: summary(kept),
    incrementalSpeedup: stat(ratios),
    incrementalCpuSpeedup: stat(cpuRatios),
    copyMb: round(copyBytes(n) / 2 ** 20, 1),
    pairs,
  };
}

export async function run(args: string[]): Promise<void> {
  const n = arg(args, 'photos', 100_000);
  const fresh = arg(args, 'new', 1_000);
  const rounds = arg(args, 'rounds', 3);
  const onlyAt = args.indexOf('--only');
  const only = onlyAt >= 0 ? args[onlyAt + 1] : null;
  console.log(`Duplicates: ${n.toLocaleString()} photos, ${fresh.toLocaleString()} new, distance ≤ ${D}, ${rounds} rounds`);
  const rows = ['', `| measure | median (min–max) |`, `| --- | --- |`];
  let index: ReturnType<typeof indexRounds> | null = null;
  if (only !== 'job') {
    console.log('1. The index alone (this process):');
    index = indexRounds(n, fresh, rounds);
    const w = index.wholeImage;
    rows.push(
      `| brute force, whole-image hash, ${n.toLocaleString()} photos (every pair) | ${show(w.bruteMs)} |`,
      `| index, the same hashes (same ${w.pairs} pairs: ${w.samePairs ? 'yes' : 'NO'}) | ${show(w.indexMs)} — ${w.speedup}× faster |`,
      `| index, all seven hashes (13 pairs of kinds), ${n.toLocaleString()} photos | ${show(index.allHashes.indexMs)} |`,
      `| index: filing ${n.toLocaleString()} photos (seven hashes each) | ${show(index.newPhotos.fileLibraryMs)} |`,
      `| index: ${fresh.toLocaleString()} new photos searched against them | ${show(index.newPhotos.searchMs)} |`,
      `| BK-tree, whole-image hash: per query (visits ${Math.round(index.bkTree.visitedShare * 100)} % of the tree) | ${index.bkTree.msPerQuery} ms → ~${index.bkTree.estimatedScanMs} ms for a full scan |`,
    );
  }
  let job: Awaited<ReturnType<typeof jobRounds>> | null = null;
  if (only !== 'index') {
    console.log('2. The duplicate_scan job (worker process, checkpointed steps, SQLite):');
    job = await jobRounds(n, fresh, rounds);
    const s = job.incrementalSpeedup;
    rows.push(
      `| job: full scan of ${n.toLocaleString()} (${job.full.steps} steps) | ${show(job.full.ms)}; CPU ${show(job.full.cpuMs)} |`,
      `| job: ${fresh.toLocaleString()} new photos, the whole library sent to the worker (${job.incrementalWholeLibrarySent.steps} steps) | ${show(job.incrementalWholeLibrarySent.ms)}; CPU ${show(job.incrementalWholeLibrarySent.cpuMs)} |`,
      `| job: ${fresh.toLocaleString()} new photos, the worker kept its copy (${job.incremental.steps} steps) | ${show(job.incremental.ms)}; CPU ${show(job.incremental.cpuMs)} |`,
      `| job: kept copy vs whole library sent, paired ratio | wall ${show(s, '×')}; CPU ${show(job.incrementalCpuSpeedup, '×')} |`,
      `| job: the worker's copy of ${n.toLocaleString()} photos (hashes and index) | ${job.copyMb} MB |`,
      `| job: longest main-thread load / apply of a step (wall) | ${Math.max(job.full.longestLoadMs, job.incremental.longestLoadMs, job.incrementalWholeLibrarySent.longestLoadMs)} ms / ${Math.max(job.full.longestApplyMs, job.incremental.longestApplyMs, job.incrementalWholeLibrarySent.longestApplyMs)} ms |`,
      `| job: most CPU main spent on one load or apply | ${Math.max(job.full.longestStepCpuMs, job.incremental.longestStepCpuMs, job.incrementalWholeLibrarySent.longestStepCpuMs)} ms |`,
    );
  }
  console.log(rows.join('\n'));
  console.log(`RESULT ${JSON.stringify({ photos: n, newPhotos: fresh, rounds, maxDistance: D, index, job })}`);
}
