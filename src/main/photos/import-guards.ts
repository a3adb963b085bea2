/**
 * Checks on the roots of an import before it starts. A pseudo file system (/proc, /sys, /dev) is
 * refused outright; a root that holds the user's whole home folder (/, /home, /proc/self/root…)
 * or more than `filesBeforeConfirming` files needs the archivist's confirmation first, because
 * such an import walks for a very long time and fills the library with what is not theirs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CallFailure } from '../../shared/result';
import { isPseudoFileSystem, SYSTEM_FOLDER_REASON, walkImport } from '../../shared/node/file-walk';

export interface ImportLimits {
  /** More files than this under the roots (counted before starting) needs a confirmation. */
  filesBeforeConfirming: number;
}

export const DEFAULT_IMPORT_LIMITS: ImportLimits = { filesBeforeConfirming: 100_000 };

async function realOrNull(p: string): Promise<string | null> {
  try {
    return await fs.promises.realpath(p);
  } catch {
    return null; // missing roots are reported by the import itself
  }
}

/** Throws `conflict` for a pseudo file system. */
export async function refusePseudoRoots(roots: string[]): Promise<void> {
  for (const root of roots) {
    const real = await realOrNull(root);
    if (real && (await isPseudoFileSystem(real)))
      throw new CallFailure('conflict', `Circa does not import "${root}": it is ${SYSTEM_FOLDER_REASON}.`);
  }
}

/** Throws `needs_confirmation` with the reason when an unconfirmed import looks like a mistake. */
export async function askBeforeHugeImports(roots: string[], limits: ImportLimits, homeDir = os.homedir()): Promise<void> {
  const home = (await realOrNull(homeDir)) ?? homeDir;
  for (const root of roots) {
    const real = await realOrNull(root);
    if (real && (home === real || home.startsWith(real === path.sep ? real : real + path.sep)))
      throw new CallFailure(
        'needs_confirmation',
        `"${root}" contains your whole home folder${real !== root ? ` (it is ${real})` : ''}: importing it walks every file ` +
          'below it, which takes very long and adds far more than your photos. Import the folders that hold your scans instead, or confirm to go on.',
      );
  }
  let files = 0;
  for (const root of roots)
    for await (const item of walkImport(root)) {
      if (item.kind === 'error') continue;
      if (++files > limits.filesBeforeConfirming)
        throw new CallFailure(
          'needs_confirmation',
          `${roots.length > 1 ? 'These folders hold' : `"${root}" holds`} more than ${limits.filesBeforeConfirming.toLocaleString('en')} files; ` +
            'importing them takes a long time. Confirm to go on.',
        );
    }
}
