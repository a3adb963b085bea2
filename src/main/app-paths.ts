/**
 * Locates the app's own files (migrations, built renderer, worker entry) whether the code runs
 * from source (vitest, tsx) or from the electron-vite build in out/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface AppPaths {
  root: string;
  migrations: string;
  rendererDir: string;
  /** Built worker entry (out/main/worker.js). */
  builtWorkerEntry: string;
  /** Worker entry from source, for tests and dev (run with `--import tsx`). */
  sourceWorkerEntry: string;
}

let cached: AppPaths | undefined;

export function appPaths(): AppPaths {
  if (cached) return cached;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (fs.existsSync(pkg) && JSON.parse(fs.readFileSync(pkg, 'utf8')).name === 'circa') break;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('Cannot find the Circa app folder (package.json named "circa")');
    dir = parent;
  }
  cached = {
    root: dir,
    migrations: path.join(dir, 'migrations'),
    rendererDir: path.join(dir, 'out', 'renderer'),
    builtWorkerEntry: path.join(dir, 'out', 'main', 'worker.js'),
    sourceWorkerEntry: path.join(dir, 'src', 'worker', 'index.ts'),
  };
  return cached;
}
