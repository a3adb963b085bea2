/**
 * Electron's own build of better-sqlite3. Node (tests, browser mode, the headless runner) uses
 * node_modules/better-sqlite3/build; Electron has a different ABI, so `npm start` first runs
 * scripts/ensure-electron-native.mjs, which builds a copy into .native/ — the Node build is never
 * touched, so neither mode can break the other. Both compute the same path (a test checks it).
 */
import path from 'node:path';

export function electronNativeBindingPath(
  appRoot: string,
  electronVersion = process.versions.electron,
  platform: string = process.platform,
  arch: string = process.arch,
): string {
  return path.join(appRoot, '.native', `electron-${electronVersion}-${platform}-${arch}`, 'better_sqlite3.node');
}
