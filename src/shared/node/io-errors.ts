/**
 * Turning file-system errors into job errors: what a retry cannot fix (the file is gone, is a
 * folder, may not be read) is a PermanentJobError with a readable message; anything that may pass
 * (EMFILE, EBUSY, EIO on a network share…) stays a plain Error so the runtime retries it.
 */
import fs from 'node:fs/promises';
import { PermanentJobError } from '../jobs/errors';

const PERMANENT_FS_CODES: Record<string, (p: string) => string> = {
  ENOENT: (p) => `File not found at ${p}`,
  ENOTDIR: (p) => `File not found at ${p} (a parent of it is not a folder)`,
  EISDIR: (p) => `Not a file: ${p} is a folder`,
  EACCES: (p) => `Permission denied reading ${p}`,
  ELOOP: (p) => `Cannot read ${p}: too many levels of symbolic links`,
  ENAMETOOLONG: (p) => `Cannot read ${p}: the path is too long`,
};

export function errnoCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export function isAbortError(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || errnoCode(err) === 'ABORT_ERR');
}

/** Map an fs error met while reading `filePath` to the error the job should fail with. */
export function fsReadError(err: unknown, filePath: string): unknown {
  if (isAbortError(err) || err instanceof PermanentJobError) return err;
  const code = errnoCode(err);
  const permanent = code ? PERMANENT_FS_CODES[code] : undefined;
  if (permanent) return new PermanentJobError(permanent(filePath), { cause: err });
  const reason = err instanceof Error ? err.message : String(err);
  return new Error(`Could not read ${filePath}: ${reason}`, { cause: err });
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  signal?.throwIfAborted();
}

/**
 * The disk (or the user's quota on it) is full: ENOSPC/EDQUOT from Node; from SQLite, SQLITE_FULL,
 * or SQLITE_IOERR_SHMSIZE (opening a WAL library whose shared-memory file cannot grow).
 */
export function isDiskFull(err: unknown): boolean {
  const code = errnoCode(err) ?? '';
  if (['ENOSPC', 'EDQUOT', 'SQLITE_IOERR_SHMSIZE'].includes(code) || code.startsWith('SQLITE_FULL')) return true;
  return err instanceof Error && /database or disk is full|no space left on device/i.test(err.message);
}

/** `what` ran out of room in `dir`: permanent (a retry frees no space), in the archivist's words. */
export function diskFullError(what: string, dir: string, elsewhere: string, cause?: unknown): PermanentJobError {
  return new PermanentJobError(
    `The disk is full: ${what} did not fit in ${dir}. Free some space there or choose another ${elsewhere}.`,
    { cause },
  );
}

/**
 * A write failed and the disk it went to is (nearly) full. For a tool that reports a failed write
 * in its own words (ExifTool), with no error code to read.
 */
export async function ranOutOfRoom(err: unknown, dir: string, nearlyFullBytes = 1 << 20): Promise<boolean> {
  if (isDiskFull(err)) return true;
  try {
    const s = await fs.statfs(dir);
    return s.bavail * s.bsize < nearlyFullBytes;
  } catch {
    return false;
  }
}
