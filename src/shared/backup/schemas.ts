/** The contract's shapes for the Backups screen: the list of backups and a restore's report. */
import { z } from 'zod';
import { backupReasons } from './manifest';

export const backupEntrySchema = z.object({
  /** The file name: what `backups.restore` takes. */
  name: z.string(),
  folder: z.string(),
  createdAt: z.number(),
  size: z.number().int(),
  photos: z.number().int().nullable(),
  verified: z.boolean(),
  reason: z.enum(backupReasons).nullable(),
  schemaVersion: z.number().int().nullable(),
});
export type BackupEntry = z.infer<typeof backupEntrySchema>;

export const backupListSchema = z.object({
  folder: z.string(),
  /** The backup folder could not be read (a drive that is not connected): why. */
  problem: z.string().nullable(),
  items: z.array(backupEntrySchema),
});

export const restoreReportSchema = z.object({
  restoredFrom: z.string(),
  safetyCopy: z.string().nullable(),
  schemaBefore: z.number().int(),
  schemaAfter: z.number().int(),
  photos: z.number().int(),
  requeued: z.number().int(),
  thumbnailsQueued: z.number().int(),
});
export type RestoreReport = z.infer<typeof restoreReportSchema>;
