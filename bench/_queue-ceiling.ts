/**
 * The ceiling of a drain (bench -- queue): main's statements alone, with no worker, no IPC and no
 * runtime around them. Each transaction settles the jobs the previous one claimed (the type's
 * `apply`, here the diagnostic marker write, then the fenced success with its audit row) and
 * claims the next 64 (with theirs), as the runner's cycle does for a worker topped up to 64.
 * SQLite runs one writer at a time, so no hand-off policy drains faster than this: it says how far
 * a ratio against plainjob can go before what each job writes (lease, counts, audit) must change.
 */
import fs from 'node:fs';
import path from 'node:path';
import { diagnosticMarkerWriter, openCore } from '../src/main/core/core';
import { diagnosticMainHalves } from '../src/main/jobs/registry';
import { JobTransitions } from '../src/main/jobs/store/transitions';
import type { JobRow } from '../src/main/jobs/store/rows';
import { fill, noSpawn } from './_queue-support';

const BATCH = 64;
const OWNER = 'ceiling';

/** Drains `n` pre-filled jobs of `type` (with subjects) through main's statements alone; jobs/s. */
export async function ceilingDrain(root: string, n: number, type: string): Promise<number> {
  const dir = fs.mkdtempSync(path.join(root, 'circa-ceiling-'));
  await fill(dir, n, type, true);
  const core = openCore({ libraryDir: dir, mode: 'headless', spawn: noSpawn, runJobs: false, diagnostics: true });
  try {
    const transitions = new JobTransitions(core.db, core.ledger);
    const half = diagnosticMainHalves(diagnosticMarkerWriter(core.db.sqlite))[type as 'diag.noop_batch'];
    const output = { pid: process.pid, startedAt: 0 };
    let claimed: JobRow[] = [];
    let done = 0;
    const t0 = performance.now();
    do {
      transitions.transaction(() => {
        for (const row of claimed) {
          const payload = JSON.parse(row.payload) as { key: string };
          const summary = half.apply(output, { id: row.id, attempt: row.attempt, payload, subject: row.subject }) as string;
          if (!transitions.markSuccess({ id: row.id, attempt: row.attempt, claimedBy: OWNER }, summary, true))
            throw new Error(`job ${row.id}: fenced off`);
        }
        done += claimed.length;
        claimed = transitions.claim(OWNER, 30_000, { max: BATCH, types: 'any', depth: () => BATCH });
      });
    } while (claimed.length);
    const ms = performance.now() - t0;
    if (done !== n) throw new Error(`the ceiling drain settled ${done} of ${n}`);
    if (!core.ledger.verify().ok) throw new Error('audit ledger does not verify after the ceiling drain');
    return (n / ms) * 1000;
  } finally {
    await core.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
