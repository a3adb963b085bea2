/**
 * `backup`: a verified snapshot of the library database in the backup folder. Main takes the
 * snapshot off its thread (src/main/backup), the worker verifies the copy, publishes it under its
 * final name and rotates old backups. Thumbnails (regenerable) and originals (the archivist's own
 * files) are never copied.
 */
import { z } from 'zod';
import type { RotationPolicy } from '../../backup/rotation';
import { defineJobType, trusted } from '../define';
import type { BackupManifest } from '../../backup/manifest';
import { MINUTE } from './common';

export interface BackupInput {
  /** Where main wrote the snapshot (a temporary name in the backup folder). */
  temp: string;
  /** Its name once verified. */
  final: string;
  /** What the snapshot must hold (counts and schema at snapshot time); `size` and `verified` are filled in. */
  manifest: BackupManifest;
  /** Electron's build of better-sqlite3 (the worker opens the copy, never the library). */
  nativeBinding?: string;
  rotation: RotationPolicy;
}

export const backupOutputSchema = z.object({
  name: z.string().max(300),
  size: z.number().int().min(0),
  photos: z.number().int().min(0),
  /** Older backups removed by rotation. */
  removed: z.array(z.string().max(300)).max(10_000),
  /** Rotation could not remove something (the backup itself is fine). */
  rotationError: z.string().max(2000).nullable(),
});
export type BackupOutput = z.infer<typeof backupOutputSchema>;

export const backupJobType = defineJobType({
  type: 'backup',
  description: 'A verified snapshot of the library database in the backup folder (thumbnails and originals are not copied).',
  payload: z.object({ reason: z.enum(['manual', 'scheduled']).default('manual') }).strict(),
  input: trusted<BackupInput>(),
  output: backupOutputSchema,
  subject: () => 'library',
  // Main prepares the snapshot asynchronously, so it is handed over alone (see LoadContext).
  policy: { maxRetries: 1, timeoutMs: 60 * MINUTE, handOff: 1, prefetch: 0, concurrency: 1 },
  limits: {},
  ui: { label: 'Backup', inSentence: 'the backup', startable: true },
});
export type BackupJobType = typeof backupJobType;
