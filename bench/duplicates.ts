/**
 * Duplicate benchmark (`npm run bench -- duplicates [--photos N] [--new N] [--rounds N] [--only job|index] [--profile DIR]`).
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
 *     longest `load` and `apply` (main's share of a step) and the number of steps (_duplicates-job.ts).
 *     `--only job|index` runs one part; `--profile DIR` profiles main and the worker during the
 *     job's rounds and prints where the kept-copy scans spent their CPU.
 *
 * The last line is `RESULT {…}`.
 */
import path from 'node:path';
import { popcount32 } from '../src/shared/duplicates/hash-set';
import { HashIndex } from '../src/worker/duplicates/hash-index';
import { PhotoIndex, findPairs, queriesOf } from '../src/worker/duplicates/find-pairs';
import { BkTree } from './_bk-tree';
import { arg, round } from './_util';
import { D, WORDS, makeHashes, show, stat, timed } from './_duplicates-support';
import { jobRounds } from './_duplicates-job';

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

export async function run(args: string[]): Promise<void> {
  const n = arg(args, 'photos', 100_000);
  const fresh = arg(args, 'new', 1_000);
  const rounds = arg(args, 'rounds', 3);
  const onlyAt = args.indexOf('--only');
  const only = onlyAt >= 0 ? args[onlyAt + 1] : null;
  const profileAt = args.indexOf('--profile');
  const profile = profileAt >= 0 ? path.resolve(args[profileAt + 1]) : null;
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
    job = await jobRounds(n, fresh, rounds, profile);
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
