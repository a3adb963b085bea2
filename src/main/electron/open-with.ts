/**
 * "Open with Circa" on a folder (or photos): the OS starts Circa with the paths as arguments
 * (Windows, Linux: the desktop entry's %F) or sends macOS's `open-file`. Circa never imports on its
 * own — it asks first (main.ts) — and only what exists on this machine is offered. The paths are
 * resolved where they were given: a second launch resolves its own arguments against its own
 * working directory and passes them on (second-instance.ts). No electron import: tested under Node.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Options that take a value (their value is not a path to open). */
const OPTIONS_WITH_VALUE = new Set(['--library']);

/**
 * The paths a launch asks Circa to open: its arguments after the executable that are not options
 * and exist, made absolute. `withAppFolder`: the launch is `electron [switches] APP [args]` (a
 * development build, Playwright), whose first non-option argument is the app folder, not a path
 * to import; an installed app's arguments follow its executable directly.
 */
export function pathsToOpen(argv: readonly string[], cwd: string, withAppFolder: boolean): string[] {
  const out: string[] = [];
  let appFolderSeen = !withAppFolder;
  const args = argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') continue;
    if (a.startsWith('-')) {
      if (OPTIONS_WITH_VALUE.has(a)) i++;
      continue;
    }
    if (!appFolderSeen) {
      appFolderSeen = true;
      continue;
    }
    let given = a;
    try {
      if (a.startsWith('file://')) given = fileURLToPath(a);
    } catch {
      continue; // a file URL for another host or system: nothing here to import
    }
    const abs = path.resolve(cwd, given);
    if (fs.existsSync(abs) && !out.includes(abs)) out.push(abs);
  }
  return out;
}

/** What the question about opened paths says. */
export function openWithQuestion(paths: readonly string[]): { message: string; detail: string } {
  const folders = paths.filter((p) => {
    try {
      return fs.statSync(p).isDirectory();
    } catch {
      return false;
    }
  });
  const what =
    paths.length === 1
      ? folders.length
        ? `the folder “${path.basename(paths[0])}”`
        : `“${path.basename(paths[0])}”`
      : `${paths.length} items`;
  return {
    message: `Import ${what} into the library?`,
    detail: [
      ...paths.slice(0, 5),
      ...(paths.length > 5 ? [`… and ${paths.length - 5} more`] : []),
      '',
      folders.length
        ? 'Photos in folders and their subfolders are added where they are; nothing is copied or changed.'
        : 'Photos are added where they are; nothing is copied or changed.',
    ].join('\n'),
  };
}
