/**
 * Dating benchmark (`npm run bench -- dating [--captions N] [--photos N]`).
 *
 *  1. OCR: N printed-caption images through the real job path (ocr jobs in 2 worker processes,
 *     evidence applied in main) against a bare tesseract.js loop over the same images at the same
 *     concurrency (2 processes, one reused tesseract worker each). Target ≥ 0.9×.
 *  2. constraint_rebuild over a library seeded with --photos photos (default 100,000) × 5
 *     evidence items: time until every estimate is recomputed (target ≤ 10 s), while a small user
 *     write (photos.setNotes through the contract, in main) is issued every 5 ms; its p99 latency
 *     measured from when it was due (target ≤ 10 ms).
 *
 * The last line is `RESULT {…}`.
 */
import { fork } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openCore, type Core } from '../src/main/core/core';
import { forkWorkerSpawner } from '../src/main/jobs/fork-worker';
import { appPaths } from '../src/main/app-paths';
import { arg, round, sleep, userWritesEvery5ms } from './_util';
import { renderCaption } from '../test/support/caption-images';

const here = path.dirname(fileURLToPath(import.meta.url));

const CAPTIONS = [
  'Grandma and Joe, Xmas 1942',
  'Coney Island, summer 1961',
  'POSTMARK BROOKLYN N.Y. JUN 12 1947',
  'c. 1935 Ford dealership, Main St.',
  'Wedding of Ruth & Harold, June 1938',
  'Class of 1952, Lincoln High School',
];

function spawner() {
  const paths = appPaths();
  return fs.existsSync(paths.builtWorkerEntry)
    ? { spawn: forkWorkerSpawner(paths.builtWorkerEntry), from: 'built worker' }
    : { spawn: forkWorkerSpawner(paths.sourceWorkerEntry, ['--import', 'tsx']), from: 'worker from source (tsx)' };
}

async function makeCaptions(dir: string, n: number): Promise<string[]> {
  const files: string[] = [];
  for (let i = 0; i < n; i++) {
    const file = path.join(dir, `caption-${i}.png`);
    const font = (['DejaVu Sans', 'DejaVu Serif', 'DejaVu Sans Mono'] as const)[i % 3];
    // Unique text per image so every file is a distinct photo.
    fs.writeFileSync(file, await renderCaption(`${CAPTIONS[i % CAPTIONS.length]} (no. ${i})`, { font, size: 40 }));
    files.push(file);
  }
  return files;
}

async function bareOcr(files: string[]): Promise<number> {
  const halves = [files.filter((_, i) => i % 2 === 0), files.filter((_, i) => i % 2 === 1)];
  const children = halves.map(() =>
    fork(path.join(here, 'dating.child.ts'), [], { execArgv: ['--import', 'tsx'], serialization: 'advanced' }),
  );
  // Engines warm (tesseract loaded) before the clock starts, as Circa's workers are.
  await Promise.all(children.map((c) => new Promise((r) => c.once('message', r))));
  const t0 = performance.now();
  await Promise.all(
    children.map(
      (c, i) =>
        new Promise<void>((resolve) => {
          c.once('message', () => resolve());
          c.send({ files: halves[i] });
        }),
    ),
  );
  const seconds = (performance.now() - t0) / 1000;
  children.forEach((c) => c.kill());
  return seconds;
}

async function circaOcr(dir: string, n: number): Promise<{ seconds: number; from: string; dated: number }> {
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
    if (core.importer.status()?.status !== 'running' && c.queued + c.running === 0 && c.success >= n) break;
  }
  // Warm each worker's tesseract engine with one OCR job outside the clock (the bare loop warms too).
  const ids = core.photos.list({ sort: 'filename', filter: 'all', limit: 500 }).items.map((p) => p.id);
  const warm = core.jobs.enqueueMany(ids.slice(0, 2).map((photoId) => ({ type: 'ocr', payload: { photoId } })));
  while (warm.some((w) => core.jobs.queries.get(w.job.id)!.status !== 'success')) await sleep(20);
  const before = core.jobs.counts().success;
  const t0 = performance.now();
  core.jobs.enqueueMany(ids.map((photoId) => ({ type: 'ocr', payload: { photoId } })));
  for (;;) {
    await sleep(10);
    const c = core.jobs.counts();
    if (c.queued + c.running === 0 && c.success + c.failed >= before + n) break;
  }
  const seconds = (performance.now() - t0) / 1000;
  const dated = core.db.sqlite
    .prepare("SELECT count(DISTINCT photo_id) FROM evidence WHERE source = 'ocr' AND superseded_at IS NULL")
    .pluck()
    .get() as number;
  await core.close();
  return { seconds, from, dated };
}

export function seedEvidence(core: Core, photos: number): void {
  const insPhoto = core.db.sqlite.prepare(
    `INSERT INTO photos (sha256, path, filename, size, metadata_status, imported_at, updated_at) VALUES (?, ?, ?, 1, 'ready', ?, ?)`,
  );
  const insEv = core.db.sqlite.prepare(
    `INSERT INTO evidence (photo_id, source, kind, earliest, latest, confidence, summary, review_status, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, 0)`,
  );
  const chunk = 20_000;
  for (let start = 0; start < photos; start += chunk) {
    core.db.immediate(() => {
      for (let i = start; i < Math.min(photos, start + chunk); i++) {
        const now = Date.now();
        const { lastInsertRowid } = insPhoto.run(
          crypto.createHash('sha256').update(String(i)).digest('hex'),
          `/s/${i}.tif`,
          `${i}.tif`,
          now,
          now,
        );
        const id = Number(lastInsertRowid);
        const y = 1900 + (i % 80);
        insEv.run(id, 'exif', 'bound', null, 20050101 + (i % 12) * 100, null, 'Scanned 2005 (EXIF)', 'accepted');
        insEv.run(id, 'ocr', 'estimate', y * 10000 + 1220, y * 10000 + 1231, 0.8, `Text reads “Xmas ${y}”`, 'pending');
        insEv.run(id, 'ai', 'estimate', (y - 5) * 10000 + 101, (y + 5) * 10000 + 1231, 0.3, 'Visual analysis', 'pending');
        insEv.run(id, 'manual', 'bound', (y - 10) * 10000 + 101, null, null, `Not before ${y - 10}`, 'accepted');
        insEv.run(id, 'ai', 'estimate', (y - 20) * 10000 + 101, (y + 20) * 10000 + 1231, 0.2, 'older analysis', 'rejected');
      }
    });
  }
}

async function rebuild(
  photos: number,
): Promise<{ seconds: number; userWriteP99: number; userWriteP50: number; writes: number; from: string }> {
  const { spawn, from } = spawner();
  const core = openCore({
    libraryDir: fs.mkdtempSync(path.join(os.tmpdir(), 'circa-bench-rebuild-')),
    mode: 'headless',
    spawn,
    concurrency: 2,
  });
  seedEvidence(core, photos);
  while ((core.runner?.getStats().workersAlive ?? 0) < 2) await sleep(10);
  const stopWrites = userWritesEvery5ms(core);
  const t0 = performance.now();
  const { job } = core.jobs.enqueue({ type: 'constraint_rebuild', payload: {} });
  for (;;) {
    await sleep(20);
    const row = core.jobs.queries.get(job.id)!;
    if (row.status === 'success') break;
    if (row.status === 'failed' || row.status === 'cancelled') throw new Error(`rebuild ${row.status}: ${row.error_message}`);
  }
  const seconds = (performance.now() - t0) / 1000;
  const writes = await stopWrites();
  const stale = core.db.sqlite.prepare("SELECT count(*) FROM photos WHERE estimate_status = 'undated'").pluck().get() as number;
  await core.close();
  if (stale) throw new Error(`${stale} photos were left without an estimate`);
  return {
    seconds,
    userWriteP99: writes.p99,
    userWriteP50: writes.p50,
    writes: writes.n,
    from,
  };
}

export async function run(args: string[]): Promise<void> {
  const n = arg(args, 'captions', 24);
  const photos = arg(args, 'photos', 100_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-bench-captions-'));
  console.log(`rendering ${n} caption images …`);
  const files = await makeCaptions(dir, n);
  const bareSeconds = await bareOcr(files);
  const circa = await circaOcr(dir, n);
  console.log(`seeding ${photos.toLocaleString()} photos × 5 evidence items and rebuilding …`);
  const rb = await rebuild(photos);

  const rows: [string, string][] = [
    ['captions', String(n)],
    ['bare tesseract.js loop (2 processes)', `${round(bareSeconds)} s — ${round(n / bareSeconds)} images/s`],
    [
      'Circa ocr jobs (2 workers)',
      `${round(circa.seconds)} s — ${round(n / circa.seconds)} images/s [${circa.from}]; ${circa.dated}/${n} with a date`,
    ],
    ['ratio Circa / bare', `${round(bareSeconds / circa.seconds)} (target ≥ 0.9)`],
    [`constraint_rebuild, ${photos.toLocaleString()} photos × 5 evidence`, `${round(rb.seconds)} s (target ≤ 10) [${rb.from}]`],
    [
      'user write during rebuild (every 5 ms)',
      `p50 ${rb.userWriteP50} ms, p99 ${rb.userWriteP99} ms over ${rb.writes} writes (target p99 ≤ 10)`,
    ],
  ];
  const width = Math.max(...rows.map((r) => r[0].length));
  for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
  fs.rmSync(dir, { recursive: true, force: true });
  console.log(
    `RESULT ${JSON.stringify({
      captions: n,
      circaOcrPerSec: round(n / circa.seconds),
      bareOcrPerSec: round(n / bareSeconds),
      ocrRatio: round(bareSeconds / circa.seconds),
      rebuildPhotos: photos,
      rebuildSeconds: round(rb.seconds),
      userWriteP99Ms: rb.userWriteP99,
    })}`,
  );
}
