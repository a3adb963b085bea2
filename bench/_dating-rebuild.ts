/**
 * The dating benchmark's rebuild part (`npm run bench -- dating --only rebuild [--photos N]`):
 * a library seeded with N photos × 5 evidence items, then one `constraint_rebuild` of all of it
 * through the real job path (2 workers), timed until every estimate is recomputed, while a user
 * edits notes (photos.setNotes through the contract, in main) at a steady rate, one every
 * USER_WRITE_EVERY_MS: each write's latency is measured from its slot, and a write that ends past
 * later slots is followed by one at once, the rest dropped (counted as skipped), never caught up in
 * a burst no user makes. Kept apart from the OCR part so a change to the rebuild can be A/B'd in
 * minutes (`--small`). `--no-writes` leaves the user writes out.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openCore, type Core } from '../src/main/core/core';
import { pickWorker } from './_queue-support';
import { median, round, sleep, table, userWritesAtSteadyRate } from './_util';

/** A quick typist's note edits: 20 a second. */
export const USER_WRITE_EVERY_MS = 50;

export interface RebuildFigures {
  seconds: number;
  userWriteP50: number;
  userWriteP99: number;
  /** p99 of the writes after the first second (the first ones after launch pay code compiled on first use). */
  userWriteP99Steady: number;
  userWriteMax: number;
  /** How long main was busy at a stretch (event-loop delay, p99 and max): what a user write can wait behind. */
  mainBusyP99: number;
  mainBusyMax: number;
  writes: number;
  skippedWrites: number;
  from: string;
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

/** Seeds a fresh library with `photos` photos and rebuilds every estimate (see the header). */
export async function rebuildRound(photos: number, withWrites = true): Promise<RebuildFigures> {
  const { spawn, label: from } = pickWorker();
  const libraryDir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-bench-rebuild-'));
  const core = openCore({
    libraryDir,
    mode: 'headless',
    spawn,
    concurrency: 2,
  });
  seedEvidence(core, photos);
  while ((core.runner?.getStats().workersAlive ?? 0) < 2) await sleep(10);
  const stopWrites = withWrites
    ? userWritesAtSteadyRate(core, USER_WRITE_EVERY_MS)
    : async () => ({ p50: NaN, p99: NaN, p99Steady: NaN, max: NaN, n: 0, skipped: 0 });
  const busy = monitorEventLoopDelay({ resolution: 1 });
  busy.enable();
  const t0 = performance.now();
  const { job } = core.jobs.enqueue({ type: 'constraint_rebuild', payload: {} });
  for (;;) {
    await sleep(20);
    const row = core.jobs.queries.get(job.id)!;
    if (row.status === 'success') break;
    if (row.status === 'failed' || row.status === 'cancelled') throw new Error(`rebuild ${row.status}: ${row.error_message}`);
  }
  const seconds = (performance.now() - t0) / 1000;
  busy.disable();
  const writes = await stopWrites();
  const stale = core.db.sqlite.prepare("SELECT count(*) FROM photos WHERE estimate_status = 'undated'").pluck().get() as number;
  await core.close();
  fs.rmSync(libraryDir, { recursive: true, force: true });
  if (stale) throw new Error(`${stale} photos were left without an estimate`);
  return {
    seconds,
    userWriteP50: writes.p50,
    userWriteP99: writes.p99,
    userWriteP99Steady: writes.p99Steady,
    userWriteMax: writes.max,
    mainBusyP99: round(busy.percentile(99) / 1e6),
    mainBusyMax: round(busy.max / 1e6),
    writes: writes.n,
    skippedWrites: writes.skipped,
    from,
  };
}

/** `--only rebuild`: `rounds` rebuilds of fresh libraries, each figure a median with its range. */
export async function runRebuildOnly(photos: number, rounds: number, withWrites = true): Promise<void> {
  const all: RebuildFigures[] = [];
  for (let r = 0; r < rounds; r++) {
    const f = await rebuildRound(photos, withWrites);
    all.push(f);
    console.log(
      `round ${r + 1}/${rounds}: ${round(f.seconds)} s, user write p50 ${f.userWriteP50} ms, p99 ${f.userWriteP99} ms ` +
        `(after the first second ${f.userWriteP99Steady} ms), ` +
        `max ${f.userWriteMax} ms (${f.writes} writes, ${f.skippedWrites} slots skipped); main busy at a stretch p99 ${f.mainBusyP99} ms, max ${f.mainBusyMax} ms`,
    );
  }
  const of = (k: keyof Omit<RebuildFigures, 'from'>) => all.map((f) => f[k]);
  const span = (xs: number[]) => `median ${round(median(xs))} (range ${round(Math.min(...xs))}–${round(Math.max(...xs))})`;
  table([
    [`constraint_rebuild, ${photos.toLocaleString()} photos × 5 evidence`, `${span(of('seconds'))} s`, `[${all[0].from}]`],
    [`user write during rebuild (one every ${USER_WRITE_EVERY_MS} ms), p50`, `${span(of('userWriteP50'))} ms`],
    ['user write during rebuild, p99, all writes', `${span(of('userWriteP99'))} ms`],
    ['user write p99 after the first second (target ≤ 10 on an idle host)', `${span(of('userWriteP99Steady'))} ms`],
    ['user write during rebuild, max', `${span(of('userWriteMax'))} ms`],
  ]);
  console.log(
    `RESULT ${JSON.stringify({
      rebuildPhotos: photos,
      rounds,
      rebuildSeconds: round(median(of('seconds'))),
      rebuildSecondsEach: of('seconds').map((x) => round(x)),
      userWriteP50Ms: round(median(of('userWriteP50'))),
      userWriteP99Ms: round(median(of('userWriteP99'))),
      userWriteP99Each: of('userWriteP99'),
      userWriteP99SteadyMs: round(median(of('userWriteP99Steady'))),
      userWriteP99SteadyEach: of('userWriteP99Steady'),
      userWriteMaxEach: of('userWriteMax'),
      userWriteEveryMs: USER_WRITE_EVERY_MS,
      skippedWritesEach: of('skippedWrites'),
      mainBusyP99Each: of('mainBusyP99'),
    })}`,
  );
}
