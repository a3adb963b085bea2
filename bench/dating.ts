/**
 * Dating benchmark (`npm run bench -- dating [--only ocr|rebuild|calibration] [--small] [--captions N] [--rounds N] [--photos N] [--ablation] [--notation]`).
 *
 *  1. OCR: N images of the caption test set (default 100; kinds interleaved, so any N covers
 *     every kind) read through the real job path — ocr jobs in 2 worker processes, output applied
 *     in main — against a baseline that is bare tesseract.js as a developer would call it
 *     (createWorker, recognize(file), default settings, no preprocessing or retries) at the same
 *     concurrency (2 processes). --rounds paired rounds (default 3), in alternating order; images/s
 *     counts only images read (a failed job or recognition is counted and listed, never done);
 *     the ratio is the median of the rounds' ratios, with its range. What each side read is then
 *     scored per kind: character accuracy and the dates of the true text found, false dates.
 *  2. constraint_rebuild over a library seeded with --photos photos (default 100,000; 0 skips) × 5
 *     evidence items: time until every estimate is recomputed (target ≤ 10 s), while a user edits
 *     notes (photos.setNotes through the contract, in main) at a steady rate; its p99 latency
 *     measured from each write's slot (target ≤ 10 ms). See _dating-rebuild.ts.
 *  3. The offline visual-analysis heuristic on its calibration set (_dating-calibration.ts): hit
 *     rate and mean error of its intervals against known dates, per kind of image, per stated
 *     confidence, and per kind of claim on old and modern photographs.
 *
 * `--only rebuild` runs part 2 alone, --rounds times (median and range); `--only ocr` part 1 alone;
 * `--only calibration` part 3 alone.
 * `--no-writes` leaves out the user writes beside the rebuild (see _dating-rebuild.ts).
 * `--only rebuild --floor` times main's SQL for a whole rebuild alone, per schema variant, 5 rounds
 * unless --rounds says otherwise (_rebuild-floor.ts).
 * `--small` is a quick scale for an A/B: 20,000 photos and 24 captions unless given.
 *
 * Before both, the notation corpus's per-category table (_dating-notation.ts); `--notation` prints
 * only that.
 *
 * `--ablation` instead reads the set in this process with every optional engine step, with each
 * one turned off, and with none: what each step buys in dates found and what it costs in readings.
 *
 * The last line is `RESULT {…}`.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openCore, type Core } from '../src/main/core/core';
import { forkWorkerSpawner } from '../src/main/jobs/fork-worker';
import { appPaths } from '../src/main/app-paths';
import { arg, pct, round, sleep } from './_util';
import { createOcrEngine, ALL_OCR_STEPS, type OcrSteps } from '../src/worker/ocr';
import { rebuildRound, runRebuildOnly, USER_WRITE_EVERY_MS } from './_dating-rebuild';
import { heuristicCalibration } from './_dating-calibration';
import { runRebuildFloor } from './_rebuild-floor';
import { notationTable } from './_dating-notation';
import { KIND_HEADER, kindRows, scoreAll, summariseByKind, writeCaptions, type CaptionFiles } from './_captions';
import { parseOcrReading } from '../src/main/catalogue/photo-repository';
import { workByKind } from './_ocr-work';

const here = path.dirname(fileURLToPath(import.meta.url));

function spawner() {
  const paths = appPaths();
  return fs.existsSync(paths.builtWorkerEntry)
    ? { spawn: forkWorkerSpawner(paths.builtWorkerEntry), from: 'built worker' }
    : { spawn: forkWorkerSpawner(paths.sourceWorkerEntry, ['--import', 'tsx']), from: 'worker from source (tsx)' };
}

interface OcrRound {
  seconds: number;
  /** File name → text read, for every image that was read. */
  texts: Map<string, string>;
  /** File name → why it failed (a failed job or a thrown recognition): never counted as read. */
  failures: Map<string, string>;
  /** File name → readings made and milliseconds spent reading it (bare: always one reading). */
  work: Map<string, { attempts: number; ms: number }>;
}

/** Two bare processes (see dating.child.ts), each given every other file; started and warm before the clock. */
async function bareRound(files: string[]): Promise<OcrRound> {
  const halves = [files.filter((_, i) => i % 2 === 0), files.filter((_, i) => i % 2 === 1)];
  const children = halves.map(() =>
    fork(path.join(here, 'dating.child.ts'), [], { execArgv: ['--import', 'tsx'], serialization: 'advanced' }),
  );
  await Promise.all(children.map((c) => new Promise((r) => c.once('message', r))));
  const t0 = performance.now();
  const answers = await Promise.all(
    children.map(
      (c, i) =>
        new Promise<{ texts: Record<string, string>; failures: Record<string, string>; ms: Record<string, number> }>(
          (resolve) => {
            c.once('message', (m) =>
              resolve(m as { texts: Record<string, string>; failures: Record<string, string>; ms: Record<string, number> }),
            );
            c.send({ files: halves[i] });
          },
        ),
    ),
  );
  const seconds = (performance.now() - t0) / 1000;
  children.forEach((c) => c.kill());
  const texts = new Map<string, string>();
  const failures = new Map<string, string>();
  const work = new Map<string, { attempts: number; ms: number }>();
  for (const a of answers) {
    for (const [f, t] of Object.entries(a.texts)) texts.set(path.basename(f), t);
    for (const [f, e] of Object.entries(a.failures)) failures.set(path.basename(f), e);
    for (const [f, ms] of Object.entries(a.ms)) work.set(path.basename(f), { attempts: 1, ms });
  }
  return { seconds, texts, failures, work };
}

interface OcrLibrary {
  core: Core;
  ids: number[];
  from: string;
}

/** A library holding the caption images, its 2 workers' OCR engines warm (one job each, outside any clock). */
async function openOcrLibrary(dir: string, n: number): Promise<OcrLibrary> {
  const { spawn, from } = spawner();
  const core = openCore({
    libraryDir: fs.mkdtempSync(path.join(os.tmpdir(), 'circa-bench-ocr-')),
    mode: 'headless',
    spawn,
    concurrency: 2,
  });
  core.importer.start([dir]);
  for (;;) {
    await sleep(20);
    const c = core.jobs.counts();
    if (core.importer.status()?.status !== 'running' && c.queued + c.running === 0 && c.success + c.failed >= n) break;
  }
  const ids = core.photos.list({ sort: 'filename', filter: 'all', limit: 500 }).items.map((p) => p.id);
  const warm = core.jobs.enqueueMany(ids.slice(0, 2).map((photoId) => ({ type: 'ocr', payload: { photoId } })));
  while (warm.some((w) => !['success', 'failed'].includes(core.jobs.queries.get(w.job.id)!.status))) await sleep(20);
  return { core, ids, from };
}

/** OCR of every photo through the job path (ocr jobs in 2 workers, applied in main). */
async function circaRound(lib: OcrLibrary): Promise<OcrRound> {
  const { core, ids } = lib;
  const before = core.jobs.counts();
  const t0 = performance.now();
  const jobs = core.jobs.enqueueMany(ids.map((photoId) => ({ type: 'ocr', payload: { photoId } })));
  for (;;) {
    await sleep(10);
    const c = core.jobs.counts();
    if (
      c.queued + c.running === 0 &&
      c.success + c.failed + c.cancelled >= before.success + before.failed + before.cancelled + ids.length
    )
      break;
  }
  const seconds = (performance.now() - t0) / 1000;
  const texts = new Map<string, string>();
  const failures = new Map<string, string>();
  const work = new Map<string, { attempts: number; ms: number }>();
  for (const { job } of jobs) {
    const row = core.jobs.queries.get(job.id)!;
    const photo = core.photos.get((JSON.parse(row.payload) as { photoId: number }).photoId)!;
    if (row.status === 'success') texts.set(photo.filename, photo.ocr_text);
    else failures.set(photo.filename, `${row.status}: ${row.error_message ?? ''}`);
    const reading = parseOcrReading(photo.ocr_reading);
    if (reading?.attempts) work.set(photo.filename, { attempts: reading.attempts, ms: reading.readMs ?? 0 });
  }
  return { seconds, texts, failures, work };
}

const median = (xs: number[]) => pct(xs, 50);
const range = (xs: number[]) => `${round(Math.min(...xs))}–${round(Math.max(...xs))}`;

/**
 * What each optional step of the engine buys: the set read in this process with every step, then
 * with each step turned off, and with none (one reading as scanned, global contrast).
 */
async function ablation(set: CaptionFiles): Promise<void> {
  const configs: [string, Partial<OcrSteps>][] = [
    ['all steps', {}],
    ...Object.keys(ALL_OCR_STEPS).map((k): [string, Partial<OcrSteps>] => [`without ${k}`, { [k]: false }]),
    ['no optional step', Object.fromEntries(Object.keys(ALL_OCR_STEPS).map((k) => [k, false]))],
  ];
  console.log(`\n${'configuration'.padEnd(24)} printed dates   false   char acc (median)   readings/image   seconds`);
  const out: Record<string, unknown>[] = [];
  for (const [label, steps] of configs) {
    const engine = createOcrEngine({ steps });
    await engine.recognize(set.files[0]).catch(() => undefined);
    const before = engine.stats().passes;
    const texts = new Map<string, string>();
    const t0 = performance.now();
    for (const f of set.files) {
      const r = await engine.recognize(f).catch(() => null);
      if (r) texts.set(path.basename(f), r.text);
    }
    const seconds = (performance.now() - t0) / 1000;
    const passes = engine.stats().passes - before;
    await engine.terminate();
    const printed = summariseByKind(scoreAll(set, texts)).at(-1)!;
    console.log(
      `${label.padEnd(24)} ${`${printed.recovered}/${printed.dated}`.padStart(13)}   ${`${printed.falseDates}/${printed.undated}`.padStart(5)}   ` +
        `${round(printed.medianAccuracy, 3).toFixed(3).padStart(17)}   ${round(passes / set.files.length)
          .toFixed(2)
          .padStart(14)}   ${round(seconds, 1)}`,
    );
    out.push({
      label,
      recovered: printed.recovered,
      dated: printed.dated,
      falseDates: printed.falseDates,
      passes,
      seconds: round(seconds),
    });
  }
  console.log(`RESULT ${JSON.stringify({ ablation: out, images: set.files.length })}`);
}

export { seedEvidence } from './_dating-rebuild';

export async function run(args: string[]): Promise<void> {
  const small = args.includes('--small');
  const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
  if (only !== undefined && only !== 'ocr' && only !== 'rebuild' && only !== 'calibration')
    throw new Error(`--only takes ocr, rebuild or calibration, not ${only}`);
  if (only === 'calibration') {
    const c = await heuristicCalibration();
    console.log(`RESULT ${JSON.stringify({ heuristicClaims: c.byFamily, heuristicByKind: c.byKind })}`);
    return;
  }
  // The notation corpus is quick and prints first; a run of one part (--only) leaves it out.
  const notation = only ? null : notationTable();
  if (args.includes('--notation')) {
    console.log(`RESULT ${JSON.stringify({ notation })}`);
    return;
  }
  const n = arg(args, 'captions', small ? 24 : 100);
  const rounds = arg(args, 'rounds', 3);
  const photos = only === 'ocr' ? 0 : arg(args, 'photos', small ? 20_000 : 100_000);
  if (only === 'rebuild' && args.includes('--floor')) return runRebuildFloor(photos, arg(args, 'rounds', 5));
  if (only === 'rebuild') return runRebuildOnly(photos, rounds, !args.includes('--no-writes'));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-bench-captions-'));
  console.log(`rendering ${n} caption images …`);
  const set = await writeCaptions(dir, n);
  if (args.includes('--ablation')) {
    await ablation(set);
    fs.rmSync(dir, { recursive: true, force: true });
    return;
  }

  const lib = await openOcrLibrary(dir, n);
  // Paired rounds, the order alternating, so the machine's drift falls on both sides alike.
  const results: { bare: OcrRound; circa: OcrRound }[] = [];
  for (let r = 0; r < rounds; r++) {
    const bareFirst = r % 2 === 0;
    const first = bareFirst ? await bareRound(set.files) : await circaRound(lib);
    const second = bareFirst ? await circaRound(lib) : await bareRound(set.files);
    const pair = bareFirst ? { bare: first, circa: second } : { bare: second, circa: first };
    results.push(pair);
    console.log(
      `round ${r + 1}/${rounds} (${bareFirst ? 'bare first' : 'Circa first'}): bare ${round(pair.bare.texts.size / pair.bare.seconds)} images/s` +
        ` (${pair.bare.failures.size} failed), Circa ${round(pair.circa.texts.size / pair.circa.seconds)} images/s (${pair.circa.failures.size} failed)`,
    );
  }
  await lib.core.close();
  console.log(`seeding ${photos.toLocaleString()} photos × 5 evidence items and rebuilding …`);
  const rb = photos > 0 ? await rebuildRound(photos) : null;

  // Throughput counts only images read: a failed job is not done.
  const perSec = (o: OcrRound) => o.texts.size / o.seconds;
  const ratios = results.map((x) => perSec(x.circa) / perSec(x.bare));
  const circaQuality = summariseByKind(scoreAll(set, results[0].circa.texts));
  const bareQuality = summariseByKind(scoreAll(set, results[0].bare.texts));
  const failures = (k: 'bare' | 'circa') => results.reduce((sum, x) => sum + x[k].failures.size, 0);
  const rows: [string, string][] = [
    ['caption images (kinds interleaved)', `${n}; ${rounds} paired rounds, alternating order`],
    [
      'baseline: bare tesseract.js',
      `createWorker + recognize(file), no preprocessing or retries, 2 processes: median ${round(median(results.map((x) => perSec(x.bare))))} images/s (range ${range(results.map((x) => perSec(x.bare)))}), ${failures('bare')} failed`,
    ],
    [
      'Circa ocr jobs (2 workers)',
      `median ${round(median(results.map((x) => perSec(x.circa))))} images/s (range ${range(results.map((x) => perSec(x.circa)))}) [${lib.from}], ${failures('circa')} failed`,
    ],
    ['ratio Circa / bare', `median ${round(median(ratios))}, range ${range(ratios)}`],
  ];
  if (rb) {
    rows.push(
      [`constraint_rebuild, ${photos.toLocaleString()} photos × 5 evidence`, `${round(rb.seconds)} s (target ≤ 10) [${rb.from}]`],
      [
        `user write during rebuild (one every ${USER_WRITE_EVERY_MS} ms)`,
        `p50 ${rb.userWriteP50} ms, p99 ${rb.userWriteP99} ms (after the first second ${rb.userWriteP99Steady} ms, target ≤ 10) over ${rb.writes} writes`,
      ],
    );
  }
  const width = Math.max(...rows.map((r) => r[0].length));
  for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
  for (const [who, k] of [
    ['bare', 'bare'],
    ['Circa', 'circa'],
  ] as const) {
    const failed = results[0][k].failures;
    if (failed.size) console.log(`${who} failures (round 1): ${[...failed].map(([f, e]) => `${f}: ${e}`).join('; ')}`);
  }
  console.log(
    `\nWhat was read (round 1): character accuracy (median), dates of the true text found, false dates on undated captions`,
  );
  console.log(KIND_HEADER);
  for (const line of [...kindRows('bare', bareQuality), ...kindRows('Circa', circaQuality)]) console.log(line);
  const work = workByKind(
    set,
    results.map((x) => x.bare.work),
    results.map((x) => x.circa.work),
  );
  console.log(`\nReadings per image and reading time per image (median over rounds of each image's time), per kind`);
  for (const line of work.lines) console.log(line);
  fs.rmSync(dir, { recursive: true, force: true });
  const calibration = await heuristicCalibration();
  const printed = (q: typeof circaQuality) => q.at(-1)!;
  console.log(
    `RESULT ${JSON.stringify({
      captions: n,
      rounds,
      circaOcrPerSec: round(median(results.map((x) => perSec(x.circa)))),
      bareOcrPerSec: round(median(results.map((x) => perSec(x.bare)))),
      ocrRatio: round(median(ratios)),
      ocrRatios: ratios.map((x) => round(x)),
      circaAttemptsPerImage: work.circaAttemptsPerImage,
      ocrWorkByKind: work.byKind,
      circaFailed: failures('circa'),
      bareFailed: failures('bare'),
      circaPrintedDates: `${printed(circaQuality).recovered}/${printed(circaQuality).dated}`,
      barePrintedDates: `${printed(bareQuality).recovered}/${printed(bareQuality).dated}`,
      circaFalseDates: printed(circaQuality).falseDates,
      bareFalseDates: printed(bareQuality).falseDates,
      circaCharAccuracy: round(printed(circaQuality).medianAccuracy, 3),
      bareCharAccuracy: round(printed(bareQuality).medianAccuracy, 3),
      rebuildPhotos: photos,
      rebuildSeconds: rb ? round(rb.seconds) : null,
      userWriteP99Ms: rb?.userWriteP99 ?? null,
      userWriteP99SteadyMs: rb?.userWriteP99Steady ?? null,
      heuristicHitRate: round(calibration.hitRate, 3),
      heuristicMeanErrorYears: round(calibration.meanErrorYears),
      heuristicCoverage: calibration.byStatedConfidence,
      heuristicClaims: calibration.byFamily.map((f) => ({ family: f.family, byEra: f.byEra, stated: f.stated })),
      heuristicByKind: calibration.byKind,
      heuristicGraphicsWithClues: calibration.graphicsWithClues,
      notation,
    })}`,
  );
}
