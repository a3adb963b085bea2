/**
 * Whether photos' files are where they were, for the check when a library opens: a million
 * `access` calls cost main's thread ~13 µs each to issue and settle, in bursts of a page at a
 * time that held up the archivist's own writes. Photos live in folders of hundreds, so a folder
 * that holds several of a page's files is listed once instead (one call, names compared in
 * memory). The answer is what `access` would give: a name the listing lacks (a rename that only
 * changed case, on a disk that ignores case), a symbolic link (it may dangle) and a folder that
 * cannot be listed are asked about one by one; a folder that is not there has none of its files.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Files in one folder from which listing the folder is cheaper than asking for each. */
const LIST_FROM = 8;

/** A folder's plain entries; 'absent' when the folder is not there; null when it cannot be listed. */
type Listing = Set<string> | 'absent' | null;

/**
 * For each path, whether it exists (in the order given). Each call lists its folders afresh: a
 * listing kept from an earlier call would say a file deleted since is still there.
 */
export async function filesPresent(paths: readonly string[]): Promise<boolean[]> {
  const byFolder = new Map<string, number[]>();
  paths.forEach((p, i) => {
    const folder = path.dirname(p);
    const list = byFolder.get(folder);
    if (list) list.push(i);
    else byFolder.set(folder, [i]);
  });
  const found = new Array<boolean>(paths.length).fill(false);
  await Promise.all(
    [...byFolder].map(async ([folder, indexes]) => {
      const listing = indexes.length >= LIST_FROM ? await readListing(folder) : null;
      if (listing === 'absent') return;
      await Promise.all(
        indexes.map(async (i) => {
          found[i] = (listing !== null && listing.has(path.basename(paths[i]))) || (await exists(paths[i]));
        }),
      );
    }),
  );
  return found;
}

async function readListing(folder: string): Promise<Listing> {
  try {
    const entries = await fs.promises.readdir(folder, { withFileTypes: true });
    return new Set(entries.filter((e) => !e.isSymbolicLink()).map((e) => e.name));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'absent' : null;
  }
}

function exists(file: string): Promise<boolean> {
  return fs.promises.access(file).then(
    () => true,
    () => false,
  );
}
