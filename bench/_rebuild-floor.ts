/**
 * What bounds the rebuild's speed from below (`npm run bench -- dating --only rebuild --floor
 * [--photos N] [--rounds N]`): main's SQL for a whole rebuild alone, with no job path, no worker
 * and no messages. A library of N photos × 5 evidence (the rebuild bench's seed) is seeded once;
 * the worker's estimates of every photo are computed beforehand by the worker's own handler, so
 * they are today's size. Each round then copies the seeded library and times, chunk by chunk of
 * REBUILD_CHUNK photos, the rebuild's real main half: its load (the reads) and its apply (the
 * photo UPDATEs) in one write transaction per chunk, as the job's commit runs it.
 *
 * Each round runs every schema variant, in an order that alternates between rounds:
 *  - today: the schema as migrated;
 *  - noStatusIdx: without photos_estimate_status_idx (photos_estimate_range_idx begins with the
 *    same column);
 *  - sinceE1bf76e: without the two indexes added since e1bf76e (photos_date_order_idx,
 *    photos_estimate_range_idx), e1bf76e's own two estimate indexes put back.
 * Before the rounds, the listing's query plans are compared with and without
 * photos_estimate_status_idx: which query would sort without it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openCore } from '../src/main/core/core';
import { openDatabase, type LibraryDb } from '../src/main/db/open';
import { appPaths } from '../src/main/app-paths';
import { rebuildJob, type RebuildPayload } from '../src/main/dating/rebuild-job';
import { REBUILD_CHUNK, RebuildPace } from '../src/main/dating/rebuild-pace';
import { rebuildHandler } from '../src/worker/handlers/rebuild';
import { PhotoListing, type PhotoQuery } from '../src/main/catalogue/photo-listing';
import { photoFilters, photoSorts } from '../src/shared/photo-query';
import type { RebuildInput, RebuildOutput } from '../src/shared/jobs/outputs/rebuild';
import { seedEvidence } from './_dating-rebuild';
import { median, round, table } from './_util';

const VARIANTS = {
  today: [],
  noStatusIdx: ['DROP INDEX photos_estimate_status_idx'],
  sinceE1bf76e: [
    'DROP INDEX photos_date_order_idx',
    'DROP INDEX photos_estimate_range_idx',
    'CREATE INDEX photos_estimate_idx ON photos (estimate_earliest, id)',
    'CREATE INDEX photos_estimate_sort_idx ON photos ((estimate_earliest IS NULL), estimate_earliest, id)',
  ],
} as const;
type Variant = keyof typeof VARIANTS;

interface FloorRound {
  loadMs: number;
  applyMs: number;
  /** Load and apply together: main's SQL for the whole rebuild. */
  totalMs: number;
}

/** Steps of REBUILD_CHUNK photos, whatever they cost (the floor is measured at the largest step). */
function fixedPace(): RebuildPace {
  return Object.assign(new RebuildPace(), { nextSize: () => REBUILD_CHUNK });
}

const DB_FILE = 'circa.db';

/** The seeded library and every chunk's worker answer, computed once. */
async function seedOnce(photos: number): Promise<{ dir: string; answers: RebuildOutput[] }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-bench-floor-seed-'));
  const core = openCore({ libraryDir: dir, mode: 'headless', spawn: neverSpawn, runJobs: false });
  seedEvidence(core, photos);
  const half = rebuildJob({ sqlite: core.db.sqlite, onPhotosChanged() {}, pace: fixedPace() });
  const answers: RebuildOutput[] = [];
  const signal = new AbortController().signal;
  let payload: RebuildPayload = {};
  for (;;) {
    const input = (await half.load({ id: 1, attempt: 1, payload, subject: null }, { signal })) as RebuildInput;
    if (!input.photos.length) break;
    const out = (await rebuildHandler(input, { jobId: 1, attempt: 1, signal, progress() {} })) as RebuildOutput;
    answers.push(out);
    const last = input.photos.at(-1)!.id;
    payload = { cursor: { afterId: last, done: 0, total: photos } };
  }
  await core.close();
  return { dir, answers };
}

const neverSpawn = (() => {
  throw new Error('the floor bench runs no worker');
}) as never;

function openCopy(seedDir: string, variant: Variant): { db: LibraryDb; dir: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-bench-floor-'));
  fs.copyFileSync(path.join(seedDir, DB_FILE), path.join(dir, DB_FILE));
  const db = openDatabase({ file: path.join(dir, DB_FILE), migrationsFolder: appPaths().migrations });
  for (const sql of VARIANTS[variant]) db.sqlite.exec(sql);
  db.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  return { db, dir };
}

/** One rebuild's SQL in main: every chunk's load, then its apply in one write transaction. */
async function floorRound(seedDir: string, answers: RebuildOutput[], variant: Variant): Promise<FloorRound> {
  const { db, dir, figures } = await rebuiltCopy(seedDir, answers, variant);
  await db.close();
  fs.rmSync(dir, { recursive: true, force: true });
  return figures;
}

/** A copy of the seeded library rebuilt under `variant`, still open, and what its SQL took. */
async function rebuiltCopy(seedDir: string, answers: RebuildOutput[], variant: Variant) {
  const { db, dir } = openCopy(seedDir, variant);
  const half = rebuildJob({ sqlite: db.sqlite, onPhotosChanged() {}, pace: fixedPace() });
  const signal = new AbortController().signal;
  let payload: RebuildPayload = {};
  let loadMs = 0;
  let applyMs = 0;
  for (const out of answers) {
    const job = { id: 1, attempt: 1, payload, subject: null };
    let t = performance.now();
    const input = (await half.load(job, { signal })) as RebuildInput;
    loadMs += performance.now() - t;
    if (input.photos.length !== out.estimates.length) throw new Error('the seeded library and its answers disagree');
    t = performance.now();
    const step = db.immediate(() => half.apply(out, job));
    applyMs += performance.now() - t;
    if (step && typeof step === 'object') payload = step.continueWith;
  }
  const undated = db.sqlite.prepare("SELECT count(*) FROM photos WHERE estimate_status = 'undated'").pluck().get() as number;
  if (undated) throw new Error(`${undated} photos were left without an estimate`);
  return { db, dir, figures: { loadMs, applyMs, totalMs: loadMs + applyMs } };
}

/** Every listing query the grid asks, by sort × filter and year range, under the app's thresholds and the tests' low ones. */
function listingQueries(): PhotoQuery[] {
  const out: PhotoQuery[] = [];
  for (const sort of photoSorts) {
    for (const filter of photoFilters) out.push({ sort, filter, limit: 100 });
    for (const [yearFrom, yearTo, yearMode] of [
      [1900, 1920, 'within'],
      [1995, undefined, 'within'],
      [undefined, 1860, 'within'],
      [1900, 1920, 'overlaps'],
    ] as const)
      for (const filter of ['all', 'needs_review', 'undated'] as const)
        out.push({ sort, filter, yearFrom, yearTo, yearMode, limit: 100 });
  }
  return out;
}

/**
 * The listing's queries (in a rebuilt library) whose plan sorts (a temporary B-tree) without
 * photos_estimate_status_idx and does not with it.
 */
async function plansWithoutStatusIndex(seedDir: string, answers: RebuildOutput[]): Promise<string[]> {
  const plans = async (variant: Variant) => {
    const { db, dir } = await rebuiltCopy(seedDir, answers, variant);
    const out = new Map<string, string>();
    for (const [setting, opts] of [
      ['app', {}],
      ['low thresholds', { countCap: 200, smallState: 100, narrowYears: 0 }],
    ] as const) {
      const listing = new PhotoListing(db.sqlite, opts);
      for (const q of listingQueries()) out.set(`${JSON.stringify(q)} (${setting})`, listing.plan(q).join(' | '));
    }
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
    return out;
  };
  const today = { out: await plans('today') };
  const without = { out: await plans('noStatusIdx') };
  const sorting: string[] = [];
  for (const [query, plan] of without.out) {
    const before = today.out.get(query)!;
    if (/TEMP B-TREE/.test(plan) && !/TEMP B-TREE/.test(before)) sorting.push(`${query}: ${plan}  (today: ${before})`);
  }
  return sorting;
}

export async function runRebuildFloor(photos: number, rounds: number): Promise<void> {
  console.log(`seeding ${photos.toLocaleString()} photos × 5 evidence and computing their estimates…`);
  const { dir, answers } = await seedOnce(photos);
  const jsonBytes = median(answers.flatMap((a) => a.estimates.map((e) => Buffer.byteLength(e.json))));
  const sorting = await plansWithoutStatusIndex(dir, answers);
  console.log(
    sorting.length
      ? `without photos_estimate_status_idx these listing queries sort:\n  ${sorting.join('\n  ')}`
      : 'without photos_estimate_status_idx no listing query sorts',
  );
  const names = Object.keys(VARIANTS) as Variant[];
  await floorRound(dir, answers, 'today'); // not counted: the first run compiles the code it runs
  const all = new Map<Variant, FloorRound[]>(names.map((n) => [n, []]));
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 ? [...names].reverse() : names;
    for (const v of order) {
      const f = await floorRound(dir, answers, v);
      all.get(v)!.push(f);
      console.log(
        `round ${r + 1}/${rounds} ${v}: load ${round(f.loadMs)} ms, apply ${round(f.applyMs)} ms, total ${round(f.totalMs)} ms`,
      );
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });
  const span = (xs: number[]) => `${round(median(xs))} (${round(Math.min(...xs))}–${round(Math.max(...xs))})`;
  const of = (v: Variant, k: keyof FloorRound) => all.get(v)!.map((f) => f[k] / 1000);
  table([
    [`main's SQL alone, ${photos.toLocaleString()} photos × 5 evidence, s: median (range)`, 'load', 'apply', 'total'],
    ...names.map((v) => [v, span(of(v, 'loadMs')), span(of(v, 'applyMs')), span(of(v, 'totalMs'))]),
  ]);
  const ratio = (v: Variant) => all.get(v)!.map((f, i) => f.totalMs / all.get('today')![i].totalMs);
  console.log(
    `RESULT ${JSON.stringify({
      floorPhotos: photos,
      rounds,
      chunk: REBUILD_CHUNK,
      estimateJsonBytes: jsonBytes,
      sortsWithoutStatusIndex: sorting.length,
      ...Object.fromEntries(
        names.map((v) => [
          v,
          {
            totalSeconds: round(median(of(v, 'totalMs')), 3),
            totalEach: of(v, 'totalMs').map((x) => round(x, 3)),
            loadSeconds: round(median(of(v, 'loadMs')), 3),
            applySeconds: round(median(of(v, 'applyMs')), 3),
            pairedRatioToToday: round(median(ratio(v)), 3),
          },
        ]),
      ),
    })}`,
  );
}
