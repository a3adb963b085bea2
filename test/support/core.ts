/** Opens a real core on a temporary library folder, with worker processes forked from source. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openCore, type Core, type CoreOptions } from '../../src/main/core/core';
import { forkWorkerSpawner } from '../../src/main/jobs/fork-worker';
import { appPaths } from '../../src/main/app-paths';
import type { CallInput, CallName, CallOutput } from '../../src/shared/contract';
import type { JobStatus } from '../../src/shared/jobs/states';

export function tempDir(prefix = 'circa-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Worker processes from TypeScript source, through tsx. */
export const sourceSpawner = () => forkWorkerSpawner(appPaths().sourceWorkerEntry, ['--import', 'tsx']);

export function openTestCore(opts: Partial<CoreOptions> & { libraryDir?: string } = {}): Core {
  return openCore({
    libraryDir: opts.libraryDir ?? tempDir(),
    mode: 'test',
    spawn: sourceSpawner(),
    diagnostics: true,
    concurrency: 2,
    ...opts,
    runner: { renewEveryMs: 500, sweepEveryMs: 500, pollEveryMs: 100, cancelGraceMs: 1000, ...opts.runner },
  });
}

export async function waitFor<T>(fn: () => T | undefined | null | false, timeoutMs = 30_000, what = 'condition'): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export function waitForStatus(core: Core, id: number, statuses: JobStatus[], timeoutMs = 30_000) {
  return waitFor(
    () => {
      const row = core.jobs.queries.get(id);
      return row && statuses.includes(row.status) ? row : undefined;
    },
    timeoutMs,
    `job ${id} to reach ${statuses.join('/')}`,
  );
}

/** Calls the contract on a core as a window would; a refusal throws with its message. */
export async function callCore<N extends CallName>(core: Core, name: N, input: CallInput<N>): Promise<CallOutput<N>> {
  const r = await core.dispatch(name, input);
  if (!r.ok) throw new Error(`${name}: ${r.error.message}`);
  return r.value as CallOutput<N>;
}

let barePhotos = 0;
/** A photo row with no file behind it, for tests of evidence, notes and review alone. */
export function insertBarePhoto(core: Core): number {
  const n = ++barePhotos;
  return core.db.immediate(() =>
    core.photos.insert(
      { sha256: String(n).padStart(64, 'b'), path: `/x/${n}.jpg`, filename: `${n}.jpg`, size: 1, mtimeMs: 0 },
      Date.now(),
    ),
  )!;
}
