/**
 * Where the Electron shell finds Electron's own build of better-sqlite3. Node (tests, browser
 * mode, the headless runner) uses node_modules/better-sqlite3/build; Electron has a different ABI.
 * - From a checkout, `npm start` first runs scripts/ensure-electron-native.mjs, which builds a
 *   verified copy into .native/ (the Node build is never touched, so neither mode breaks the other).
 * - In the installed app, electron-builder copies that same verified file into the app's
 *   resources folder (outside the asar archive, as a native module must be), see
 *   electron-builder.config.mjs — no .native/, no npm.
 * No electron import here: the packaging test resolves the same paths under plain Node.
 */
import path from 'node:path';

/** The file name inside the packaged app's resources folder (electron-builder `extraResources`). */
export const PACKAGED_NATIVE = path.join('native', 'better_sqlite3.node');

export function electronNativeBindingPath(
  appRoot: string,
  electronVersion = process.versions.electron,
  platform: string = process.platform,
  arch: string = process.arch,
): string {
  return path.join(appRoot, '.native', `electron-${electronVersion}-${platform}-${arch}`, 'better_sqlite3.node');
}

export function packagedNativeBindingPath(resourcesPath: string): string {
  return path.join(resourcesPath, PACKAGED_NATIVE);
}

export interface ShellLocation {
  isPackaged: boolean;
  /** process.resourcesPath */
  resourcesPath: string;
  appRoot: string;
}

/** The binding path and what to tell the user if it is missing. */
export function nativeBinding(loc: ShellLocation): { file: string; missingHelp: string } {
  if (loc.isPackaged) {
    const file = packagedNativeBindingPath(loc.resourcesPath);
    return { file, missingHelp: `This installation of Circa is incomplete (${file} is missing). Please reinstall Circa.` };
  }
  const file = electronNativeBindingPath(loc.appRoot);
  return {
    file,
    missingHelp: `Circa's database module for Electron is missing (${file}). Start Circa with "npm start", which builds it.`,
  };
}
