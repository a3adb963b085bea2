/**
 * Export and backup benchmark (`npm run bench -- export [--photos N] [--xmp N] [--rounds N]`).
 * Build first (`npm run build`): jobs run in the built worker.
 *
 *  1. CSV + JSON of a library seeded with --photos photos (default 100,000) × 5 evidence items,
 *     through the real `export` job (checkpointed steps, 2 worker processes), timed from enqueue
 *     to success, while a user write (photos.setNotes through the contract, in main) is issued
 *     every 5 ms; its p99 latency from when it was due.
 *  2. XMP sidecars for --xmp photos (default 300): the export job (one worker, ExifTool through
 *     exiftool-vendored, warmed) against two bare batches writing the same tags to the same
 *     number of new files: ExifTool's own `-stay_open` mode fed from a plain Node loop, and
 *     exiftool-vendored used bare (one process, every write queued at once). --rounds rounds
 *     (default 3) in alternating order; each ratio quoted is the median of the rounds' (with
 *     their range). Target ≥ 0.8.
 *  3. Backup of that library: the `backup` job (snapshot on a thread of main, verified in a
 *     worker), run back to back until the user writes every 5 ms during them number at least
 *     --samples (default 1,000) — p99 target ≤ 10 ms — and each one's duration (median, range);
 *     then, for the choice of how to snapshot, the same writes during `VACUUM INTO` on main's
 *     connection and during better-sqlite3's `db.backup()` stepping on main's connection.
 *  4. Reading an XMP sidecar's dates: exifr (in process) against ExifTool (exiftool-vendored).
 *
 * The last line is `RESULT {…}`.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ExifTool } from 'exiftool-vendored';
import { openCore, type Core } from '../src/main/core/core';
import { forkWorkerSpawner } from '../src/main/jobs/fork-worker';
import { appPaths } from '../src/main/app-paths';
import { CIRCA_EXIFTOOL_CONFIG, xmpTagsFor } from '../src/shared/export/xmp-tags';
import { toExportRecord, type ExportPhotoRow } from '../src/shared/export/export-record';
import { readSidecar } from '../src/worker/imaging/sidecar';
import { arg, pct, round, sleep, userWritesEvery5ms as userWrites } from './_util';
import { seedEvidence } from './dating';

const median = (xs: number[]) => pct(xs, 50);

function spawner() {
  const p = appPaths();
  if (!fs.existsSync(p.builtWorkerEntry)) throw new Error('run `npm run build` first: the benchmark uses the built worker');
  return forkWorkerSpawner(p.builtWorkerEntry);
}

async function untilDone(core: Core, id: number): Promise<void> {
  for (;;) {
    const row = core.jobs.queries.get(id)!;
    if (row.status === 'success') return;
    if (row.status === 'failed' || row.status === 'cancelled') throw new Error(`job ${id} ${row.status}: ${row.error_message}`);
    await sleep(20);
  }
}

/** Backups back to back under the user writes until at least `samples` writes were timed during them. */
async function timedBackups(core: Core, samples: number) {
  const stop = userWrites(core);
  const seconds: number[] = [];
  let summary = '';
  // The next backup is enqueued at once, so all but a few samples are taken during one.
  while (seconds.length === 0 || stop.samples() < samples) {
    const t0 = performance.now();
    const { job } = core.jobs.enqueue({ type: 'backup', payload: {} });
    await untilDone(core, job.id);
    seconds.push((performance.now() - t0) / 1000);
    summary = core.jobs.queries.get(job.id)!.result_summary ?? '';
  }
  return { seconds, writes: await stop(), summary };
}

async function timedJob(core: Core, type: string, payload: Record<string, unknown>) {
  const stop = userWrites(core);
  const t0 = performance.now();
  const { job } = core.jobs.enqueue({ type, payload });
  await untilDone(core, job.id);
  const seconds = (performance.now() - t0) / 1000;
  return { seconds, writes: await stop(), summary: core.jobs.queries.get(job.id)!.result_summary };
}

/** The same writes during a snapshot taken on main's own connection, for the comparison. */
async function onMainConnection(core: Core, how: 'vacuum' | 'stepped', dest: string) {
  const stop = userWrites(core);
  await sleep(50);
  const t0 = performance.now();
  if (how === 'vacuum') core.db.sqlite.prepare('VACUUM INTO ?').run(dest);
  else await core.db.sqlite.backup(dest);
  const seconds = (performance.now() - t0) / 1000;
  await sleep(50);
  return { seconds, writes: await stop() };
}

// ------------------------------------------------------------------ XMP

function exportRows(core: Core, n: number): ExportPhotoRow[] {
  const rows = core.db.sqlite.prepare('SELECT * FROM photos ORDER BY id LIMIT ?').all(n) as ExportPhotoRow[];
  const ev = core.db.sqlite.prepare('SELECT * FROM evidence WHERE photo_id = ? ORDER BY id');
  return rows.map((r) => ({ ...r, evidence: ev.all(r.id) as ExportPhotoRow['evidence'], sidecarName: `${r.filename}.xmp` }));
}

/** ExifTool's own batch mode: one -stay_open process fed the same tags, one new .xmp per photo. */
async function bareExiftool(rows: ExportPhotoRow[], dir: string, config: string): Promise<number> {
  const exiftool = path.join(
    path.dirname(createRequire(import.meta.url).resolve('exiftool-vendored.pl/package.json')),
    'bin',
    'exiftool',
  );
  const proc = spawn('perl', [exiftool, '-config', config, '-stay_open', 'True', '-@', '-'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  let waiter: (() => void) | null = null;
  proc.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    if (out.includes('{ready}')) {
      out = '';
      waiter?.();
    }
  });
  const run = (lines: string[]) =>
    new Promise<void>((resolve) => {
      waiter = resolve;
      proc.stdin.write(`${lines.join('\n')}\n-execute\n`);
    });
  // Started, and its XMP writer loaded, before the clock (as Circa's worker is warmed).
  await run(['-XMP-dc:Date=1900', path.join(dir, 'warm.xmp')]);
  fs.rmSync(path.join(dir, 'warm.xmp'));
  const commands = rows.map((r, i) => {
    const lines = ['-charset', 'filename=utf8', '-E'];
    for (const [tag, value] of Object.entries(xmpTagsFor(toExportRecord(r)))) {
      if (value === null) continue;
      for (const v of Array.isArray(value) ? value : [value])
        lines.push(`-${tag}=${v.replaceAll('&', '&amp;').replaceAll('\n', '&#10;')}`);
    }
    lines.push(path.join(dir, `${i}.xmp`));
    return lines;
  });
  const t0 = performance.now();
  for (const c of commands) await run(c);
  const seconds = (performance.now() - t0) / 1000;
  proc.stdin.end('-stay_open\nFalse\n');
  return seconds;
}

/** exiftool-vendored used bare: one process (as each Circa worker has), every sidecar's write queued at once. */
async function vendoredExiftool(rows: ExportPhotoRow[], dir: string, config: string): Promise<number> {
  const et = new ExifTool({
    maxProcs: 1,
    exiftoolArgs: ['-config', config, '-stay_open', 'True', '-@', '-'],
    maxTasksPerProcess: 100_000,
    useMWG: false,
  });
  await et.write(path.join(dir, 'warm.xmp'), { 'XMP-dc:Date': '1900' } as never); // started before the clock
  fs.rmSync(path.join(dir, 'warm.xmp'));
  const writes = rows.map((r, i) => {
    const tags = Object.fromEntries(Object.entries(xmpTagsFor(toExportRecord(r))).filter(([, v]) => v !== null));
    return { file: path.join(dir, `${i}.xmp`), tags };
  });
  const t0 = performance.now();
  await Promise.all(writes.map((w) => et.write(w.file, w.tags as never)));
  const seconds = (performance.now() - t0) / 1000;
  await et.end();
  return seconds;
}

async function circaXmp(core: Core, ids: number[], dir: string): Promise<number> {
  const t0 = performance.now();
  const { job } = core.jobs.enqueue({
    type: 'export',
    payload: { destination: dir, formats: ['xmp'], scope: { kind: 'ids', ids } },
  });
  await untilDone(core, job.id);
  return (performance.now() - t0) / 1000;
}

// ------------------------------------------------------------------ sidecar reading

async function sidecarReading(dir: string, n: number) {
  const files: string[] = [];
  const et = new ExifTool({ maxProcs: 1 });
  for (let i = 0; i < n; i++) {
    const image = path.join(dir, `s${i}.jpg`);
    files.push(image);
    fs.writeFileSync(
      `${image}.xmp`,
      `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/" photoshop:DateCreated="19${10 + (i % 80)}-05"><dc:date><rdf:Seq><rdf:li>19${10 + (i % 80)}-05-12</rdf:li></rdf:Seq></dc:date></rdf:Description></rdf:RDF></x:xmpmeta>`,
    );
  }
  await et.read(`${files[0]}.xmp`); // started before the clock
  let t0 = performance.now();
  for (const f of files) await readSidecar(f);
  const exifrMs = (performance.now() - t0) / n;
  t0 = performance.now();
  for (const f of files) await et.read(`${f}.xmp`);
  const exiftoolMs = (performance.now() - t0) / n;
  await et.end();
  return { exifrMs, exiftoolMs };
}

export async function run(args: string[]): Promise<void> {
  const photos = arg(args, 'photos', 100_000);
  const xmpN = arg(args, 'xmp', 300);
  const rounds = arg(args, 'rounds', 3);
  const samples = arg(args, 'samples', 1000);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-bench-export-'));
  const spawn = spawner();
  console.log(
    `export benchmark: ${photos.toLocaleString()} photos, ${os.availableParallelism()} cores, node ${process.version}, ${root}`,
  );
  const core = openCore({
    libraryDir: path.join(root, 'library'),
    mode: 'headless',
    spawn,
    concurrency: 2,
    backupSchedule: false,
  });
  try {
    console.log(`seeding ${photos.toLocaleString()} photos × 5 evidence items …`);
    seedEvidence(core, photos);
    core.db.sqlite.exec('ANALYZE');
    while ((core.runner?.getStats().workersAlive ?? 0) < 2) await sleep(10);
    const dbBytes =
      fs.statSync(core.paths.dbFile).size +
      (fs.existsSync(`${core.paths.dbFile}-wal`) ? fs.statSync(`${core.paths.dbFile}-wal`).size : 0);

    console.log('user writes with nothing running (the machine’s baseline) …');
    const stopBaseline = userWrites(core);
    await sleep(3000);
    const baseline = await stopBaseline();

    console.log('CSV + JSON export …');
    const csvJson = await timedJob(core, 'export', { destination: path.join(root, 'csv-json'), formats: ['csv', 'json'] });

    console.log(`backup (the job), until ${samples} user writes were timed during backups …`);
    const backup = await timedBackups(core, samples);
    console.log('backup alternatives on main’s connection …');
    const vacuum = await onMainConnection(core, 'vacuum', path.join(root, 'vacuum.db'));
    const stepped = await onMainConnection(core, 'stepped', path.join(root, 'stepped.db'));

    console.log(`XMP sidecars: ${xmpN} per side, ${rounds} paired rounds …`);
    const config = path.join(root, 'circa.config');
    fs.writeFileSync(config, CIRCA_EXIFTOOL_CONFIG);
    const rows = exportRows(core, xmpN);
    const ids = rows.map((r) => r.id);
    await circaXmp(core, ids.slice(0, 2), path.join(root, 'warm')); // each worker's ExifTool started before the clock
    await circaXmp(core, ids.slice(2, 4), path.join(root, 'warm2'));
    const ratios: number[] = [];
    const vendoredRatios: number[] = [];
    const circaS: number[] = [];
    const bareS: number[] = [];
    const vendoredS: number[] = [];
    for (let r = 0; r < rounds; r++) {
      // Alternating order: Circa first in even rounds, last in odd ones.
      const order = r % 2 === 0 ? ['circa', 'bare', 'vendored'] : ['vendored', 'bare', 'circa'];
      const t: Record<string, number> = {};
      for (const side of order) {
        const dir = path.join(root, `xmp-${side}-${r}`);
        fs.mkdirSync(dir);
        if (side === 'circa') t[side] = await circaXmp(core, ids, dir);
        else if (side === 'bare') t[side] = await bareExiftool(rows, dir, config);
        else t[side] = await vendoredExiftool(rows, dir, config);
      }
      circaS.push(t.circa);
      bareS.push(t.bare);
      vendoredS.push(t.vendored);
      ratios.push(t.bare / t.circa);
      vendoredRatios.push(t.vendored / t.circa);
    }
    const reading = await sidecarReading(fs.mkdtempSync(path.join(root, 'sidecars-')), 200);

    const table: [string, string][] = [
      ['library', `${photos.toLocaleString()} photos × 5 evidence, ${(dbBytes / 1048576).toFixed(0)} MB database`],
      [
        'user write with nothing running',
        `p50 ${baseline.p50} ms, p99 ${baseline.p99} ms, max ${baseline.max} ms over ${baseline.n} (this machine's floor)`,
      ],
      [
        'CSV + JSON export (job, 2 workers)',
        `${round(csvJson.seconds)} s — ${Math.round(photos / csvJson.seconds).toLocaleString()} photos/s`,
      ],
      [
        '  user write during it (every 5 ms)',
        `p50 ${csvJson.writes.p50} ms, p99 ${csvJson.writes.p99} ms, max ${csvJson.writes.max} ms over ${csvJson.writes.n}`,
      ],
      [
        'backup (job: thread snapshot + worker verify)',
        `${round(median(backup.seconds))} s, median of ${backup.seconds.length} (${round(Math.min(...backup.seconds))}–${round(Math.max(...backup.seconds))}) — ${backup.summary}`,
      ],
      [
        '  user write during it (every 5 ms)',
        `p50 ${backup.writes.p50} ms, p99 ${backup.writes.p99} ms, max ${backup.writes.max} ms over ${backup.writes.n} (target p99 ≤ 10)`,
      ],
      [
        'VACUUM INTO on main (not used)',
        `${round(vacuum.seconds)} s; user write p99 ${vacuum.writes.p99} ms, max ${vacuum.writes.max} ms`,
      ],
      [
        'db.backup() stepping on main (not used)',
        `${round(stepped.seconds)} s; user write p99 ${stepped.writes.p99} ms, max ${stepped.writes.max} ms`,
      ],
      [
        'XMP: exiftool -stay_open batch',
        `${round(median(bareS), 2)} s for ${xmpN} (median of ${rounds}: ${bareS.map((s) => round(s)).join(', ')})`,
      ],
      [
        'XMP: exiftool-vendored, bare',
        `${round(median(vendoredS), 2)} s for ${xmpN} (${vendoredS.map((s) => round(s)).join(', ')})`,
      ],
      ['XMP: Circa export job', `${round(median(circaS), 2)} s for ${xmpN} (${circaS.map((s) => round(s)).join(', ')})`],
      ['XMP ratio Circa / exiftool', `${round(median(ratios))} (rounds ${ratios.map((x) => round(x)).join(', ')}; target ≥ 0.8)`],
      [
        'XMP ratio Circa / exiftool-vendored',
        `${round(median(vendoredRatios))} (rounds ${vendoredRatios.map((x) => round(x)).join(', ')}; target ≥ 0.8)`,
      ],
      [
        'reading a sidecar’s dates',
        `exifr ${round(reading.exifrMs, 3)} ms, exiftool ${round(reading.exiftoolMs, 3)} ms per file`,
      ],
    ];
    const width = Math.max(...table.map((t) => t[0].length));
    console.log('');
    for (const [k, v] of table) console.log(`${k.padEnd(width)}  ${v}`);
    console.log('');
    console.log(
      `RESULT ${JSON.stringify({
        photos,
        baselineUserWriteP99Ms: baseline.p99,
        loadAverage: round(os.loadavg()[0]),
        csvJsonSeconds: round(csvJson.seconds),
        csvJsonUserWriteP99Ms: csvJson.writes.p99,
        csvJsonPhotosPerSecond: Math.round(photos / csvJson.seconds),
        backupSeconds: round(median(backup.seconds)),
        backupSecondsRange: [round(Math.min(...backup.seconds)), round(Math.max(...backup.seconds))],
        backups: backup.seconds.length,
        backupUserWriteP99Ms: backup.writes.p99,
        backupUserWriteSamples: backup.writes.n,
        vacuumIntoMainUserWriteMaxMs: vacuum.writes.max,
        steppedBackupMainUserWriteP99Ms: stepped.writes.p99,
        xmpPhotos: xmpN,
        xmpRatio: round(median(ratios)),
        xmpRatioRange: [round(Math.min(...ratios)), round(Math.max(...ratios))],
        xmpRounds: rounds,
        xmpCircaSeconds: round(median(circaS)),
        xmpExiftoolSeconds: round(median(bareS)),
        xmpRatioVsVendored: round(median(vendoredRatios)),
        xmpRatioVsVendoredRange: [round(Math.min(...vendoredRatios)), round(Math.max(...vendoredRatios))],
        xmpVendoredSeconds: round(median(vendoredS)),
        sidecarReadExifrMs: round(reading.exifrMs, 3),
        sidecarReadExiftoolMs: round(reading.exiftoolMs, 3),
      })}`,
    );
  } finally {
    await core.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}
