/** The worker's input for a backup of `libraryDir` whose snapshot is at `temp`: what main's load builds. */
import path from 'node:path';
import type { takeSnapshot } from '../../src/main/backup/snapshot';
import type { BackupInput } from '../../src/shared/jobs/types/backup';

export function backupJobInput(o: {
  temp: string;
  final: string;
  snap: Awaited<ReturnType<typeof takeSnapshot>>;
  libraryDir: string;
}): BackupInput {
  return {
    temp: o.temp,
    final: o.final,
    manifest: {
      format: 'circa-backup' as const,
      version: 1 as const,
      file: path.basename(o.final),
      createdAt: Date.now(),
      reason: 'manual' as const,
      schemaVersion: o.snap.schemaVersion,
      counts: o.snap.counts,
      size: 0,
      verified: false,
      libraryDir: o.libraryDir,
    },
    rotation: { keepDaily: 7, keepWeekly: 4, keepMonthly: 12 },
  };
}
