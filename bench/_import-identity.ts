/**
 * `npm run bench -- import --identity [--photos N] [--rounds N]`: what the worker saves by trusting
 * the hash main recorded while the file's stamp holds (src/shared/jobs/file-stamp.ts) instead of
 * hashing the file again. The metadata extraction runs in this process over the JPEG set, with and
 * without the stamp, in paired rounds of alternating order; CPU time per photo from
 * process.cpuUsage, so the figure is the extraction's own work (sharp at one thread, as a worker).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { arg, median, round, sleep } from './_util';
import { makePhotos } from './_import-photos';
import { extractPhotoMetadata } from '../src/worker/imaging/metadata';
import { sha256File } from '../src/shared/node/hash';
import { SETTLED_AFTER_MS } from '../src/shared/jobs/file-stamp';

export async function runIdentity(args: string[]): Promise<void> {
  const n = arg(args, 'photos', 60);
  const rounds = arg(args, 'rounds', 5);
  sharp.concurrency(1);
  sharp.cache(false);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-bench-identity-'));
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-bench-identity-thumbs-'));
  console.log(`generating ${n} photos in ${dir} …`);
  await makePhotos(dir, n);
  await sleep(SETTLED_AFTER_MS + 500); // their times settle, as an archive's files are
  const files = fs
    .readdirSync(dir)
    .sort()
    .map((f) => path.join(dir, f));
  const recorded = await Promise.all(files.map((f) => sha256File(f)));
  const side = async (stamped: boolean): Promise<number> => {
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < n; i++) {
      const { size, sha256, stamp } = recorded[i];
      await extractPhotoMetadata({
        path: files[i],
        expected: { size, sha256, ...(stamped && stamp ? { stamp } : {}) },
        thumbnailPath: path.join(out, `${i}.jpg`),
        maxFileBytes: 2 ** 31,
        maxInputPixels: 400_000_000,
      });
    }
    const cpu = process.cpuUsage(cpu0);
    return (cpu.user + cpu.system) / 1000 / n;
  };
  await side(false); // warm-up: code, page cache
  const hashed: number[] = [];
  const stamped: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const withStamp of r % 2 ? [true, false] : [false, true]) (withStamp ? stamped : hashed).push(await side(withStamp));
  }
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(out, { recursive: true, force: true });
  const range = (xs: number[]) => `${round(Math.min(...xs))}–${round(Math.max(...xs))}`;
  const saved = hashed.map((h, i) => h - stamped[i]);
  console.log(`stamps kept: ${recorded.filter((r) => r.stamp).length} of ${n}`);
  console.log(`worker CPU per photo, file hashed again: median ${round(median(hashed))} ms (${range(hashed)})`);
  console.log(`worker CPU per photo, stamp trusted:     median ${round(median(stamped))} ms (${range(stamped)})`);
  console.log(`saved per photo, ${rounds} paired rounds:      median ${round(median(saved))} ms (${range(saved)})`);
}
