/**
 * Electron's own build of better-sqlite3. Node (tests, browser mode, the headless runner) uses
 * node_modules/better-sqlite3/build; Electron has a different ABI, so `npm start` first runs
 * scripts/ensure-electron-native.mjs, which builds a copy into .native/ — the Node build is never
 * touched, so neither mode can break the other.
 */
import path from 'node:path';

export function electronNativeBindingPath(appRoot: string): string {
  const v = process.versions.electron;
  return path.join(appRoot, '.native', `electron-${v}-${process.platform}-${process.arch}`, 'better_sqlite3.node');
}
