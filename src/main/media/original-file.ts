/**
 * Opening a photo's original for serving, checked at every open — not once at import. Between
 * opens the file at the recorded path can be swapped for a link to /etc/passwd, to the library's
 * own audit.key or browser.json, or for another file. So, each time:
 *  - the path is resolved through any links, and must stay inside the folder it was imported
 *    from, and outside the library folder;
 *  - the file is opened without following a link, and the open file is the one resolved (same
 *    device and inode), so a swap between the check and the open is caught;
 *  - the open file has the size and modification time recorded at import (the records hold no
 *    device and inode, so size and time are what can be compared).
 * Anything else is "changed on disk": the bytes are not served. The caller owns the returned
 * descriptor and streams from it, so what is served is exactly what was checked.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { PhotoRow } from '../catalogue/photo-repository';

export type OpenedOriginal = { ok: true; fd: number; size: number } | { ok: false; missing: boolean; reason: string };

type Recorded = Pick<PhotoRow, 'path' | 'size' | 'mtime_ms'>;

function inside(dir: string, file: string): boolean {
  return file.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep);
}

function changed(reason: string): OpenedOriginal {
  return { ok: false, missing: false, reason: `The file has changed on disk since it was imported: ${reason}` };
}

export function openOriginal(photo: Recorded, libraryDir: string): OpenedOriginal {
  let real: string;
  let folder: string;
  try {
    real = fs.realpathSync(photo.path);
    folder = fs.realpathSync(path.dirname(photo.path));
  } catch {
    return { ok: false, missing: true, reason: `The file is missing: ${photo.path}` };
  }
  if (!inside(folder, real)) return changed(`${photo.path} is now a link out of its folder (to ${real})`);
  let library = path.resolve(libraryDir);
  try {
    library = fs.realpathSync(libraryDir);
  } catch {
    /* the library folder itself is checked elsewhere; compare with the path as given */
  }
  if (inside(library, real) || real === library) return changed(`${photo.path} now leads into the library folder`);

  let fd: number;
  try {
    fd = fs.openSync(real, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ok: false, missing: true, reason: `The file is missing: ${photo.path}` };
    return changed(`${photo.path} could not be opened as a plain file (${code ?? 'error'})`);
  }
  const refuse = (why: string): OpenedOriginal => {
    fs.closeSync(fd);
    return changed(why);
  };
  const opened = fs.fstatSync(fd);
  if (!opened.isFile()) return refuse(`${photo.path} is no longer a plain file`);
  let resolved: fs.Stats;
  try {
    resolved = fs.statSync(real);
  } catch {
    return refuse(`${photo.path} was replaced while it was being opened`);
  }
  if (resolved.dev !== opened.dev || resolved.ino !== opened.ino)
    return refuse(`${photo.path} was replaced while it was being opened`);
  if (opened.size !== photo.size) return refuse(`it was ${photo.size} bytes and is now ${opened.size}`);
  if (photo.mtime_ms !== null && Math.round(opened.mtimeMs) !== Math.round(photo.mtime_ms))
    return refuse(`it was modified on ${new Date(opened.mtimeMs).toISOString()}`);
  return { ok: true, fd, size: opened.size };
}
