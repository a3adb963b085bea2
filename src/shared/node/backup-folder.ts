/**
 * Reading and writing the backup folder (see ../backup/manifest.ts): main lists it for the app and
 * the schedule; the backup job's worker publishes into it and rotates it.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  PARTIAL_SUFFIX,
  backupManifestSchema,
  isBackupFileName,
  manifestNameFor,
  type BackupManifest,
  type BackupReason,
} from '../backup/manifest';
import { diskFullError } from './io-errors';

export interface BackupEntry {
  name: string;
  file: string;
  size: number;
  /** From the manifest, or the file's time when it has none. */
  createdAt: number;
  reason: BackupReason | null;
  /** The manifest says it verified and the file is still the size it had then. */
  verified: boolean;
  photos: number | null;
  schemaVersion: number | null;
  manifest: BackupManifest | null;
}

/** Every backup file in `dir`, newest first. A missing folder is an error for the caller to word. */
export async function readBackupFolder(dir: string): Promise<BackupEntry[]> {
  const names = (await fs.readdir(dir)).filter(isBackupFileName);
  const entries = await Promise.all(
    names.map(async (name): Promise<BackupEntry | null> => {
      const file = path.join(dir, name);
      let size: number;
      let mtime: number;
      try {
        const st = await fs.stat(file);
        if (!st.isFile()) return null;
        size = st.size;
        mtime = st.mtimeMs;
      } catch {
        return null; // removed while we looked
      }
      const manifest = await readManifest(path.join(dir, manifestNameFor(name)));
      const ours = manifest?.file === name ? manifest : null;
      return {
        name,
        file,
        size,
        createdAt: ours?.createdAt ?? Math.round(mtime),
        reason: ours?.reason ?? null,
        verified: !!ours?.verified && ours.size === size,
        photos: ours?.counts.photos ?? null,
        schemaVersion: ours?.schemaVersion ?? null,
        manifest: ours,
      };
    }),
  );
  return entries.filter((e): e is BackupEntry => e !== null).sort((a, b) => b.createdAt - a.createdAt);
}

async function readManifest(file: string): Promise<BackupManifest | null> {
  try {
    const parsed = backupManifestSchema.safeParse(JSON.parse(await fs.readFile(file, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** A backup that ran out of room. */
export const backupDiskFull = (dir: string, cause?: unknown) => diskFullError('the backup', dir, 'backup folder', cause);

/** Writes `data` to a temporary name, flushes it to disk, then renames it into place; a failure leaves neither. */
export async function writeFileAtomic(file: string, data: string | Buffer): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}${PARTIAL_SUFFIX}`);
  try {
    const handle = await fs.open(temp, 'w');
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, file);
  } catch (err) {
    await fs.rm(temp, { force: true });
    throw err;
  }
}

export async function fsyncPath(file: string): Promise<void> {
  let handle;
  try {
    handle = await fs.open(file, 'r');
    await handle.sync();
  } catch {
    /* some platforms (Windows folders) cannot be synced; the rename is still atomic */
  } finally {
    await handle?.close();
  }
}

/**
 * Removes what backups cut off (a crash, kill -9, a full disk) left behind: partial files not
 * touched for `olderThanMs` (a backup still being written by another process keeps its file fresh).
 */
export async function removeStalePartials(dir: string, olderThanMs = 5 * 60_000): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await fs.readdir(dir)) {
    if (!name.startsWith('.') || !name.endsWith(PARTIAL_SUFFIX)) continue;
    const file = path.join(dir, name);
    try {
      if (Date.now() - (await fs.stat(file)).mtimeMs < olderThanMs) continue;
      await fs.rm(file, { force: true });
      removed.push(name);
    } catch {
      /* gone already */
    }
  }
  return removed;
}
