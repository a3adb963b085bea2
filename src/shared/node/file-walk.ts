/**
 * What an import (in main) and a Locate (in a worker) walk, and what they leave out and why. Every file under a root is either a
 * candidate or a skip with a reason the archivist can act on; nothing is dropped silently except
 * hidden files (.DS_Store, ._resource forks, hidden folders).
 *
 * Links: a link to a file inside the imported root is resolved, and the photo is recorded at its
 * real path (so it is read, served and deduplicated as the file it is). A link to a file outside
 * the root is not followed — importing a folder never pulls in files from elsewhere, such as
 * /etc/passwd — and neither is a link to a folder (links can loop). Pseudo file systems (/proc,
 * /sys, /dev and their kin) are never entered.
 */
import fs from 'node:fs';
import path from 'node:path';

export type SkipKind = 'heic' | 'not-image' | 'special' | 'link-outside' | 'link-folder' | 'link-broken' | 'system';

export type WalkItem =
  /** `path` is the real file; `name` the name it was found under (a link's own name). */
  | { kind: 'file'; path: string; name: string }
  | { kind: 'skip'; path: string; skip: SkipKind; reason: string }
  | { kind: 'error'; path: string; error: unknown };

/** Folders whose contents are the kernel's, not files (Linux). */
const PSEUDO_ROOTS = process.platform === 'linux' ? ['/proc', '/sys', '/dev'] : process.platform === 'darwin' ? ['/dev'] : [];
/** statfs magic numbers of kernel file systems (procfs, sysfs, devpts, debugfs, cgroup, cgroup2, securityfs, tracefs, bpf). */
const PSEUDO_FS_TYPES = new Set([
  0x9fa0, 0x62656572, 0x1cd1, 0x64626720, 0x27e0eb, 0x63677270, 0x73636673, 0x74726163, 0xcafe4a11,
]);

/** True when `realPath` is inside a pseudo file system. */
export async function isPseudoFileSystem(realPath: string): Promise<boolean> {
  if (PSEUDO_ROOTS.some((r) => realPath === r || realPath.startsWith(r + path.sep))) return true;
  if (process.platform !== 'linux') return false;
  try {
    return PSEUDO_FS_TYPES.has((await fs.promises.statfs(realPath)).type);
  } catch {
    return false;
  }
}

export const SYSTEM_FOLDER_REASON = 'a system folder of the operating system (like /proc, /sys or /dev), not photos';

function special(st: fs.Stats | fs.Dirent): string | null {
  if (st.isFIFO()) return 'a named pipe (FIFO), not a file';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device, not a file';
  if (st.isSocket()) return 'a socket, not a file';
  return null;
}

const skip = (p: string, kind: SkipKind, reason: string): WalkItem => ({ kind: 'skip', path: p, skip: kind, reason });

function inside(root: string, p: string): boolean {
  return p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/**
 * Yields every file under `root` (or `root` itself), depth first, in name order. A root named
 * explicitly is followed even when it is a link: the archivist chose that file.
 */
export async function* walkImport(root: string): AsyncGenerator<WalkItem> {
  let realRoot: string;
  let st: fs.Stats;
  try {
    realRoot = await fs.promises.realpath(root);
    st = await fs.promises.stat(realRoot);
  } catch (error) {
    yield { kind: 'error', path: root, error };
    return;
  }
  if (await isPseudoFileSystem(realRoot)) return yield skip(root, 'system', SYSTEM_FOLDER_REASON);
  if (st.isFile()) return yield { kind: 'file', path: realRoot, name: path.basename(root) };
  if (!st.isDirectory()) return yield skip(root, 'special', special(st) ?? 'not a file');

  const stack = [root];
  while (stack.length) {
    const dir = stack.pop()!;
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(dir, { withFileTypes: true });
    } catch (error) {
      yield { kind: 'error', path: dir, error };
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: string[] = [];
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const full = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (await isPseudoFileSystem(full)) yield skip(full, 'system', SYSTEM_FOLDER_REASON);
        else subdirs.push(full);
      } else if (e.isFile()) yield { kind: 'file', path: full, name: e.name };
      else if (e.isSymbolicLink()) yield await followLink(full, realRoot);
      else yield skip(full, 'special', special(e) ?? 'not a file');
    }
    stack.push(...subdirs.reverse());
  }
}

async function followLink(link: string, realRoot: string): Promise<WalkItem> {
  let target: string;
  let st: fs.Stats;
  try {
    target = await fs.promises.realpath(link);
    st = await fs.promises.stat(target);
  } catch {
    return skip(link, 'link-broken', 'a link whose target does not exist');
  }
  if (st.isDirectory()) return skip(link, 'link-folder', `a link to a folder (${target}): links to folders are not followed`);
  if (!inside(realRoot, target) || (await isPseudoFileSystem(target)))
    return skip(
      link,
      'link-outside',
      `a link to a file outside the imported folder (${target}): not followed — import that file itself to include it`,
    );
  if (!st.isFile()) return skip(link, 'special', special(st) ?? 'not a file');
  return { kind: 'file', path: target, name: path.basename(link) };
}
