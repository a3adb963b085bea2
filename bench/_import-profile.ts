/**
 * `npm run bench -- import --profile DIR [--photos N]`: one Circa import of the JPEG set and one
 * minimal loop over the same files, every process CPU-profiled (main in-process, the workers and
 * the loop's children with --cpu-prof), then a summary per process of where its time went. The
 * profiles stay in DIR for a closer look (Chrome DevTools, speedscope).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { arg, round } from './_util';
import { makePhotos } from './_import-photos';
import { bareLoop, circaImport } from './_import-sides';
import { summariseProfile } from './_cpu-profile';

export async function runProfile(args: string[]): Promise<void> {
  const out = path.resolve(args[args.indexOf('--profile') + 1] ?? 'import-profile');
  const n = arg(args, 'photos', 200);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-bench-photos-'));
  console.log(`generating ${n} photos in ${dir} …`);
  await makePhotos(dir, n);
  const sides = { circa: path.join(out, 'circa'), minimal: path.join(out, 'minimal') };
  for (const d of Object.values(sides)) fs.mkdirSync(d, { recursive: true });
  const c = await circaImport(dir, n, sides.circa);
  const m = await bareLoop(dir, 'minimal', sides.minimal);
  fs.rmSync(dir, { recursive: true, force: true });
  console.log(
    `Circa ${round(n / c.seconds, 1)} photos/s, CPU per photo main ${round(c.mainCpuMsPerPhoto, 1)} ms / workers ${round(c.workerCpuMsPerPhoto, 1)} ms; ` +
      `minimal ${round(n / m.seconds, 1)} photos/s, CPU per photo ${round(m.cpuMsPerPhoto, 1)} ms (one run each, not paired: for where, not how fast)`,
  );
  for (const [side, d] of Object.entries(sides)) {
    console.log(`\n== ${side} (${d})`);
    for (const f of fs
      .readdirSync(d)
      .filter((f) => f.endsWith('.cpuprofile'))
      .sort())
      console.log(summariseProfile(path.join(d, f)));
  }
}
