/**
 * A library Circa cannot write is refused at start with the reason, instead of opening and then
 * retrying every write for ever (a read-only mount, a folder or circa.db without write
 * permission, a locked-down copy on a network share).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { LibraryPaths } from './paths';

export class LibraryNotWritableError extends Error {
  override readonly name = 'LibraryNotWritableError';
  constructor(dir: string, detail: string) {
    super(
      `The library at ${dir} is read-only (${detail}). Circa needs to write to its library — the database, ` +
        'thumbnails and the audit key. Make the folder and its files writable (check their permissions, and ' +
        'whether the disk or mount is read-only), then start Circa again.',
    );
  }
}

const FILE_CODES = new Set(['EACCES', 'EPERM', 'EROFS']);

/** True for errors that mean "this cannot be written here" (SQLite's or the file system's). */
export function isNotWritable(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  if (typeof code !== 'string') return false;
  return FILE_CODES.has(code) || code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN');
}

/** Creates the library's folders and proves a file can be written in them. */
export function ensureWritableFolders(paths: LibraryPaths): void {
  const probe = path.join(paths.thumbnailsDir, `.write-probe-${process.pid}`);
  try {
    fs.mkdirSync(paths.thumbnailsDir, { recursive: true });
    fs.writeFileSync(probe, '');
    fs.rmSync(probe);
  } catch (err) {
    if (isNotWritable(err)) throw new LibraryNotWritableError(paths.dir, (err as Error).message);
    throw err;
  }
}
