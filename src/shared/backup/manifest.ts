/**
 * A backup is one SQLite file in the backup folder (`circa-20261130-201503-manual.db`) and, beside
 * it, its manifest (`….db.json`): when it was taken, why, the schema version and the row counts
 * it was verified against. The folder is the truth about which backups exist — an external drive
 * can be swapped or pruned by hand — so nothing about them is stored in the library itself.
 *
 * A backup is written under a temporary name (`.circa-….db.partial`) and renamed only once it has
 * verified; the manifest is renamed into place first, so a file under a final name always has one.
 */
import { z } from 'zod';

export const backupReasons = ['manual', 'scheduled', 'pre-migration', 'before-restore'] as const;
export type BackupReason = (typeof backupReasons)[number];

/** The tables whose row counts a snapshot is verified against. */
export const COUNTED_TABLES = ['photos', 'evidence', 'background_jobs', 'audit_events', 'settings'] as const;

export const backupCountsSchema = z.record(z.string(), z.number().int().min(0));
export type BackupCounts = z.infer<typeof backupCountsSchema>;

export const backupManifestSchema = z.object({
  format: z.literal('circa-backup'),
  version: z.literal(1),
  /** The backup's file name (in the same folder). */
  file: z.string(),
  createdAt: z.number().int(),
  reason: z.enum(backupReasons),
  /** Number of migrations applied in the backup (the library's schema version). */
  schemaVersion: z.number().int().min(0),
  /** Row counts of the source at the moment of the snapshot; the backup was checked to hold exactly these. */
  counts: backupCountsSchema,
  size: z.number().int().min(0),
  /** integrity_check passed and the counts matched; false for a copy kept without those checks. */
  verified: z.boolean(),
  /** The library the backup was taken of. */
  libraryDir: z.string(),
});
export type BackupManifest = z.infer<typeof backupManifestSchema>;

export const BACKUP_PREFIX = 'circa-';
export const PARTIAL_SUFFIX = '.partial';

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** `circa-20261130-201503-manual.db`, in local time (what the archivist reads in a file manager). */
export function backupFileName(createdAt: number, reason: BackupReason): string {
  const d = new Date(createdAt);
  const stamp = `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}-${pad(d.getHours())}${pad(d.getMinutes())}${pad(d.getSeconds())}`;
  return `${BACKUP_PREFIX}${stamp}-${reason}.db`;
}

export const manifestNameFor = (backupName: string) => `${backupName}.json`;
export const partialNameFor = (name: string) => `.${name}${PARTIAL_SUFFIX}`;

/** A backup file name Circa writes (never a partial, never a manifest). */
export function isBackupFileName(name: string): boolean {
  return name.startsWith(BACKUP_PREFIX) && name.endsWith('.db');
}
