/**
 * The import benchmark's archival-scan set (`npm run bench -- import --set scans [--scale S]
 * [--copies N] [--rounds N]`, issue 31 item 3). Archives scan at 600–1200 dpi into TIFF, often 16
 * bits per channel and sometimes several pages per file: 100–400 MB each. The set, generated here:
 *
 *   scan16-lzw.tif           16-bit RGB, LZW              7200 × 5400   (~200 MB at scale 1)
 *   scan16-uncompressed.tif  16-bit RGB, uncompressed     6000 × 4500   (162 MB)
 *   scan8-uncompressed.tif   8-bit RGB, uncompressed      10000 × 10000 (300 MB: the zoom-tile file)
 *   album-3-pages.tif        8-bit RGB, LZW, 3 pages      6000 × 4500 each
 *   scan16.png               16-bit RGB PNG               6000 × 4500
 *   progressive.jpg          progressive JPEG, q 92       12000 × 9000
 *
 * `--scale S` multiplies every file's pixel count (default 0.05: a quick run of 5–15 MB files;
 * `--scale 1` gives the real sizes and needs ~1.5 GB of disk). Each file is imported `--copies`
 * times (default 2; unique bytes appended after the image data, which every decoder ignores, so
 * each copy is a photo of its own). Measured, in paired rounds whose order alternates:
 *  - photos/s of Circa's import (2 workers) against the minimal loop (hash + exifr + one sharp
 *    thumbnail, 2 processes) over the same files (target ≥ 0.8);
 *  - the peak resident memory of a worker (sampled every 200 ms);
 *  - the time from the import's start until the first photo has its thumbnail (target ≤ 2 s), and
 *    beside it each file's thumbnail made alone (what its format bounds that time by);
 *  - then, in `--zoom-rounds` rounds (default 3; a fresh library each): from asking for the 300 MB
 *    TIFF's zoom view (photos.viewer, as the photo screen does) until its first full-resolution
 *    tile is served (target ≤ 1.5 s), until its overview tile is, and until the whole pyramid is
 *    published behind (when the first tile came before tiles were cut on demand). `--only zoom`
 *    generates that file alone and runs only these rounds.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { openCore } from '../src/main/core/core';
import { serveMedia } from '../src/main/media/media';
import type { Viewer } from '../src/shared/contract';
import { arg, pct, round, sleep } from './_util';
import { bareLoop, circaImport, spawner, type CircaRun } from './import';

interface ScanSpec {
  name: string;
  width: number;
  height: number;
  write(img: Sharp): Sharp;
  pages?: number;
  sixteenBit?: boolean;
}

const SET: ScanSpec[] = [
  { name: 'scan16-lzw.tif', width: 7200, height: 5400, sixteenBit: true, write: (i) => i.tiff({ compression: 'lzw' }) },
  { name: 'scan16-uncompressed.tif', width: 6000, height: 4500, sixteenBit: true, write: (i) => i.tiff({ compression: 'none' }) },
  { name: 'scan8-uncompressed.tif', width: 10000, height: 10000, write: (i) => i.tiff({ compression: 'none' }) },
  { name: 'album-3-pages.tif', width: 6000, height: 4500, pages: 3, write: (i) => i.tiff({ compression: 'lzw' }) },
  { name: 'scan16.png', width: 6000, height: 4500, sixteenBit: true, write: (i) => i.png({ compressionLevel: 1 }) },
  { name: 'progressive.jpg', width: 12000, height: 9000, write: (i) => i.jpeg({ quality: 92, progressive: true }) },
];
/** The file whose zoom view is timed: the 300 MB uncompressed TIFF at scale 1. */
const ZOOM_FILE = 'scan8-uncompressed.tif';

/** Photo-like content: blurred noise enlarged (16-bit files interpolate in 16 bits, so they hold more than 256 levels). */
async function writeScan(spec: ScanSpec, scale: number, base: Buffer, file: string): Promise<void> {
  const k = Math.sqrt(scale);
  const width = Math.max(64, Math.round(spec.width * k));
  const height = Math.max(64, Math.round(spec.height * k));
  const pages = spec.pages ?? 1;
  let img = sharp(base);
  if (spec.sixteenBit) img = img.pipelineColourspace('rgb16');
  img = img.resize(width, height * pages, { fit: 'fill', kernel: 'cubic' });
  if (pages > 1) {
    // Pages are stacked and cut by pageHeight: each page is a different part of the picture.
    const raw = await img.raw().toBuffer({ resolveWithObject: true });
    img = sharp(raw.data, { raw: { width, height: height * pages, channels: raw.info.channels, pageHeight: height } });
  }
  if (spec.sixteenBit) img = img.toColourspace('rgb16');
  await spec.write(img).toFile(file);
}

/** The set in `dir`, each file `copies` times with unique trailing bytes. */
export async function makeScans(
  dir: string,
  scale: number,
  copies: number,
  only?: string[],
): Promise<{ files: number; mb: number }> {
  const base = await sharp({
    create: { width: 1200, height: 900, channels: 3, noise: { type: 'gaussian', mean: 128, sigma: 60 }, background: '#808080' },
  })
    .blur(1.2)
    .png()
    .toBuffer();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-bench-scan-src-'));
  let mb = 0;
  const specs = SET.filter((spec) => !only || only.includes(spec.name));
  for (const spec of specs) {
    const src = path.join(scratch, spec.name);
    await writeScan(spec, scale, base, src);
    const bytes = fs.readFileSync(src);
    for (let c = 0; c < copies; c++) {
      const target = path.join(dir, `${path.parse(spec.name).name}-${c}${path.extname(spec.name)}`);
      const fd = fs.openSync(target, 'w');
      fs.writeSync(fd, bytes);
      fs.writeSync(fd, Buffer.from(`\0circa-bench copy ${c} ${process.pid} ${Date.now()}`));
      fs.fsyncSync(fd);
      fs.closeSync(fd);
      mb += (bytes.length + 40) / 1e6;
    }
  }
  fs.rmSync(scratch, { recursive: true, force: true });
  return { files: specs.length * copies, mb };
}

/** Seconds from asking for a photo's zoom view (as the photo screen does) until each thing was there. */
interface ZoomTimes {
  /** The top-left tile at full resolution (1:1), cut from the original on demand. */
  firstTile: number;
  /** The one-tile overview (level 0): the whole scan shrunk, also cut on demand. */
  overview: number;
  /** The whole pyramid published by the preview job behind: when the first tile came before tiles were cut. */
  pyramid: number;
}

/** One round: a fresh library imports `file`, then its zoom view is asked for and timed. */
async function zoomTimes(file: string): Promise<ZoomTimes> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-bench-zoom-'));
  fs.copyFileSync(file, path.join(dir, path.basename(file)));
  const core = openCore({
    libraryDir: fs.mkdtempSync(path.join(os.tmpdir(), 'circa-bench-lib-')),
    mode: 'headless',
    spawn: spawner().spawn,
    concurrency: 2,
  });
  try {
    core.importer.start([dir]);
    while (core.importer.status()?.status === 'running' || core.jobs.counts().queued + core.jobs.counts().running > 0) {
      await sleep(50);
    }
    const [photo] = core.photos.list({ sort: 'imported', filter: 'all', limit: 1 }).items;
    const t0 = performance.now();
    const since = () => (performance.now() - t0) / 1000;
    const r = await core.dispatch('photos.viewer', { id: photo.id });
    if (!r.ok) throw new Error(r.error.message);
    const v = r.value as Viewer;
    if (v.kind !== 'tiles') throw new Error(`expected a zoom view of tiles, got ${v.kind}`);
    const tile = async (level: number) => {
      const res = await serveMedia(core.media, new URL(`circa://app/media/tile/${photo.id}/${level}/0_0`));
      if (res.status !== 200) throw new Error(`tile ${level}/0_0 answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
      return since();
    };
    const firstTile = await tile(v.levels - 1);
    const overview = await tile(0);
    for (;;) {
      const [job] = core.jobs.queries.list({ subject: `photo:${photo.id}`, types: ['preview'], limit: 1 }).rows;
      if (job?.status === 'success') break;
      if (!job || job.status === 'failed' || job.status === 'cancelled') throw new Error(`the preview job ended ${job?.status}`);
      await sleep(50);
    }
    return { firstTile, overview, pyramid: since() };
  } finally {
    await core.close();
    fs.rmSync(core.paths.dir, { recursive: true, force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// The middle of the rounds (the mean of the two middle ones when their number is even).
const median = (xs: number[]) => (pct(xs, 50) + pct(xs, 50 + 50 / xs.length)) / 2;
const range = (xs: number[]) => `range ${round(Math.min(...xs))}–${round(Math.max(...xs))}`;
const spread = (xs: number[]) => `median ${round(median(xs))} s, ${range(xs)}`;

/**
 * What each file's format alone bounds the first thumbnail by: one plain sharp thumbnail of it
 * (as the minimal loop makes it), three times (an LZW strip TIFF or a PNG has no reduced-size
 * decode, so its whole image is decoded whatever size is asked for).
 */
async function thumbnailBounds(dir: string): Promise<[string, string][]> {
  const rows: [string, string][] = [];
  for (const spec of SET) {
    const file = path.join(dir, `${path.parse(spec.name).name}-0${path.extname(spec.name)}`);
    const xs: number[] = [];
    for (let r = 0; r < 3; r++) {
      const t0 = performance.now();
      await sharp(file, { failOn: 'error' }).rotate().resize(512, 512, { fit: 'inside' }).jpeg({ quality: 80 }).toBuffer();
      xs.push((performance.now() - t0) / 1000);
    }
    rows.push([`thumbnail of ${spec.name} alone (${round(fs.statSync(file).size / 1e6, 0)} MB), 3 runs`, spread(xs)]);
  }
  return rows;
}

/** `--zoom-rounds` rounds of zoomTimes on the 300 MB TIFF (a fresh library each). */
async function zoomRounds(dir: string, count: number): Promise<{ times: ZoomTimes[]; mb: number }> {
  const file = fs
    .readdirSync(dir)
    .map((f) => path.join(dir, f))
    .find((f) => path.basename(f).startsWith(path.parse(ZOOM_FILE).name))!;
  const times: ZoomTimes[] = [];
  for (let r = 0; r < count; r++) {
    const t = await zoomTimes(file);
    times.push(t);
    console.log(
      `zoom round ${r + 1}/${count}: first full-resolution tile ${round(t.firstTile)} s, overview ${round(t.overview)} s, ` +
        `whole pyramid ${round(t.pyramid)} s`,
    );
  }
  return { times, mb: fs.statSync(file).size / 1e6 };
}

function zoomRows(zoom: { times: ZoomTimes[]; mb: number }): [string, string][] {
  const n = zoom.times.length;
  return [
    [
      `zoom view asked → first full-resolution tile (${round(zoom.mb, 0)} MB TIFF, ${n} rounds)`,
      `${spread(zoom.times.map((t) => t.firstTile))} (target ≤ 1.5 s)`,
    ],
    ['zoom view asked → overview tile (level 0, whole scan shrunk)', spread(zoom.times.map((t) => t.overview))],
    ['zoom view asked → whole pyramid (the first tile before on-demand tiles)', spread(zoom.times.map((t) => t.pyramid))],
  ];
}

function printRows(rows: [string, string][]): void {
  const width = Math.max(...rows.map((r) => r[0].length));
  for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
}

export async function runScans(args: string[]): Promise<void> {
  const scale = arg(args, 'scale', 0.05);
  const copies = arg(args, 'copies', 2);
  const roundCount = arg(args, 'rounds', 3);
  const zoomCount = arg(args, 'zoom-rounds', 3);
  const zoomOnly = args.includes('--only') && args[args.indexOf('--only') + 1] === 'zoom';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-bench-scans-'));
  console.log(`generating the scan set at scale ${scale} (${copies} copies of each) in ${dir} …`);
  const { files, mb } = await makeScans(dir, scale, zoomOnly ? 1 : copies, zoomOnly ? [ZOOM_FILE] : undefined);
  if (zoomOnly) {
    const zoom = await zoomRounds(dir, zoomCount);
    fs.rmSync(dir, { recursive: true, force: true });
    printRows(zoomRows(zoom));
    const firsts = zoom.times.map((t) => t.firstTile);
    console.log(
      `RESULT ${JSON.stringify({ set: 'scans', only: 'zoom', scale, zoomFirstTileSeconds: round(median(firsts)), zoom: zoom.times })}`,
    );
    return;
  }
  const rounds: { ratio: number; circa: number; minimal: number; run: CircaRun }[] = [];
  for (let r = 0; r < roundCount; r++) {
    let minimalSeconds = 0;
    let run: CircaRun | undefined;
    const sides = [
      async () => (minimalSeconds = (await bareLoop(dir, 'minimal')).seconds),
      async () => (run = await circaImport(dir, files)),
    ];
    for (const side of r % 2 === 0 ? sides : sides.reverse()) await side();
    const round_ = {
      ratio: minimalSeconds / run!.seconds,
      circa: files / run!.seconds,
      minimal: files / minimalSeconds,
      run: run!,
    };
    rounds.push(round_);
    console.log(
      `round ${r + 1}/${roundCount}: minimal ${round(round_.minimal, 2)} photos/s, Circa ${round(round_.circa, 2)} photos/s, ` +
        `ratio ${round(round_.ratio)}, first thumbnail after ${round(run!.firstThumbnailSeconds)} s, ` +
        `RSS main ${round(run!.mainRssPeakMb, 0)} MB / worker ${round(run!.workerRssPeakMb, 0)} MB`,
    );
  }
  const zoom = await zoomRounds(dir, zoomCount);
  const bounds = await thumbnailBounds(dir);
  fs.rmSync(dir, { recursive: true, force: true });

  const ratios = rounds.map((x) => x.ratio);
  const firsts = rounds.map((x) => x.run.firstThumbnailSeconds);
  const workerPeak = Math.max(...rounds.map((x) => x.run.workerRssPeakMb));
  printRows([
    [
      'scans',
      `${files} files (${round(mb, 0)} MB; scale ${scale}: 16-bit LZW and uncompressed TIFF, 8-bit 300 MP TIFF, 3-page TIFF, 16-bit PNG, progressive JPEG)`,
    ],
    ['minimal loop: hash + exifr + thumbnail, 2 processes', `median ${round(median(rounds.map((x) => x.minimal)), 2)} photos/s`],
    ['Circa import → all thumbnails (2 workers)', `median ${round(median(rounds.map((x) => x.circa)), 2)} photos/s`],
    [
      `ratio Circa / minimal loop, ${roundCount} paired rounds`,
      `median ${round(median(ratios))}, ${range(ratios)} (target ≥ 0.8)`,
    ],
    ['import start → first thumbnail', `median ${round(median(firsts))} s, ${range(firsts)} (target ≤ 2 s)`],
    ...bounds,
    ['peak resident memory of a worker', `max ${round(workerPeak, 0)} MB over ${roundCount} rounds`],
    ...zoomRows(zoom),
  ]);
  console.log(
    `RESULT ${JSON.stringify({
      set: 'scans',
      scale,
      files,
      mb: round(mb, 0),
      ratioToMinimal: round(median(ratios)),
      ratios: ratios.map((x) => round(x)),
      firstThumbnailSeconds: round(median(firsts)),
      workerRssPeakMb: round(workerPeak, 0),
      zoomFirstTileSeconds: round(median(zoom.times.map((t) => t.firstTile))),
      zoom: zoom.times,
    })}`,
  );
}
