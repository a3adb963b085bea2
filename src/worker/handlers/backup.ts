/**
 * The worker's half of `backup`: checks the snapshot main took (integrity, schema, row counts as
 * at snapshot time), publishes it — manifest first, then the file, each renamed into place — and
 * rotates older backups. The copy is a separate file: the library itself is never opened here.
 * Anything that fails before the rename removes the partial file, so a backup that did not verify
 * never appears under a final name.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { manifestNameFor } from '../../shared/backup/manifest';
import { planRotation, type RotationPolicy } from '../../shared/backup/rotation';
import { PermanentJobError } from '../../shared/jobs/errors';
import type { BackupJobType } from '../../shared/jobs/types/backup';
import { backupDiskFull, fsyncPath, readBackupFolder, writeFileAtomic } from '../../shared/node/backup-folder';
import { isDiskFull } from '../../shared/node/io-errors';
import { NotALibraryError, countDifferences, inspectLibraryFile } from '../../shared/node/library-file';
import type { RunHandler } from './types';

export const backupHandler: RunHandler<BackupJobType> = async (input, ctx) => {
  const dir = path.dirname(input.final);
  const manifestFile = path.join(dir, manifestNameFor(path.basename(input.final)));
  let size: number;
  try {
    ctx.progress(0.1, 'Checking the snapshot');
    verify(input);
    ctx.signal.throwIfAborted();
    await fsyncPath(input.temp);
    size = (await fs.stat(input.temp)).size;
    await writeFileAtomic(manifestFile, JSON.stringify({ ...input.manifest, size, verified: true }, null, 2));
    ctx.signal.throwIfAborted();
    await fs.rename(input.temp, input.final);
    await fsyncPath(dir);
  } catch (err) {
    await fs.rm(input.temp, { force: true });
    if (!(await exists(input.final))) await fs.rm(manifestFile, { force: true });
    throw isDiskFull(err) ? backupDiskFull(dir, err) : err;
  }
  ctx.progress(0.9, 'Removing old backups');
  const { removed, error } = await rotate(dir, input.rotation);
  return {
    name: path.basename(input.final),
    size,
    photos: input.manifest.counts.photos ?? 0,
    removed,
    rotationError: error,
  };
};

function verify(input: Parameters<RunHandler<BackupJobType>>[0]): void {
  let report;
  try {
    report = inspectLibraryFile(input.temp, { nativeBinding: input.nativeBinding });
  } catch (err) {
    if (err instanceof NotALibraryError) throw new PermanentJobError(`The snapshot did not verify: ${err.message}`);
    throw err;
  }
  if (report.schemaVersion !== input.manifest.schemaVersion) {
    throw new PermanentJobError(
      `The snapshot did not verify: schema ${report.schemaVersion}, expected ${input.manifest.schemaVersion}`,
    );
  }
  const differences = countDifferences(input.manifest.counts, report.counts);
  if (differences.length) throw new PermanentJobError(`The snapshot did not verify: ${differences.join(', ')}`);
}

async function rotate(dir: string, policy: RotationPolicy) {
  const removed: string[] = [];
  try {
    const entries = await readBackupFolder(dir);
    const plan = planRotation(
      entries
        .filter((e) => e.reason)
        .map((e) => ({ name: e.name, createdAt: e.createdAt, reason: e.reason!, verified: e.verified })),
      policy,
    );
    for (const name of plan.remove) {
      await fs.rm(path.join(dir, name), { force: true });
      await fs.rm(path.join(dir, manifestNameFor(name)), { force: true });
      removed.push(name);
    }
    return { removed, error: null };
  } catch (err) {
    return { removed, error: `Old backups could not all be removed: ${(err as Error).message}` };
  }
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}
