#!/usr/bin/env node
/**
 * Makes sure Electron has its own ABI build of better-sqlite3 before `npm start` launches it.
 *
 * Node (npm test, browser mode, the headless runner) loads node_modules/better-sqlite3/build —
 * compiled by `npm install` for this Node. Electron embeds a different Node ABI, so we build a
 * second copy for it into .native/electron-<version>-<platform>-<arch>/better_sqlite3.node and
 * the Electron shell passes that file to better-sqlite3 as `nativeBinding`. The Node build is
 * never rebuilt or overwritten, so running one mode can never break the other.
 *
 * How: copy the better-sqlite3 package to a scratch folder and, there, fetch the published
 * prebuilt binary for this Electron (prebuild-install), falling back to compiling it against
 * Electron's headers (node-gyp). Both need the internet once; the result is cached.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'package.json'));

export function electronVersion() {
  return JSON.parse(fs.readFileSync(require.resolve('electron/package.json'), 'utf8')).version;
}

export function targetPath(version = electronVersion(), platform = process.platform, arch = process.arch) {
  return path.join(root, '.native', `electron-${version}-${platform}-${arch}`, 'better_sqlite3.node');
}

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, stdio: 'inherit', shell: process.platform === 'win32' });
  return r.status === 0;
}

export function ensure() {
  const version = electronVersion();
  const target = targetPath(version);
  if (fs.existsSync(target)) return { target, built: false };

  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 22 || (major === 22 && minor < 12)) {
    console.warn(`Note: Electron ${version}'s installer wants Node 22.12 or newer (this is ${process.versions.node}).`);
  }
  const pkgDir = path.dirname(require.resolve('better-sqlite3/package.json'));
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-native-'));
  const work = path.join(scratch, 'better-sqlite3');
  fs.cpSync(pkgDir, work, { recursive: true, filter: (src) => !src.includes(`${path.sep}build${path.sep}`) });
  console.log(`Building better-sqlite3 for Electron ${version} (one time)…`);
  const prebuild = require.resolve('prebuild-install/bin.js');
  // npm ships node-gyp; when run through npm, npm_execpath points at npm's own files.
  const npmDir = process.env.npm_execpath
    ? path.resolve(path.dirname(process.env.npm_execpath), '..')
    : path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm');
  const nodeGyp = path.join(npmDir, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  const ok =
    run(
      process.execPath,
      [prebuild, '--runtime=electron', `--target=${version}`, `--arch=${process.arch}`, `--platform=${process.platform}`],
      work,
    ) ||
    run(
      process.execPath,
      [nodeGyp, 'rebuild', '--release', '--runtime=electron', `--target=${version}`, '--dist-url=https://electronjs.org/headers'],
      work,
    );
  const built = path.join(work, 'build', 'Release', 'better_sqlite3.node');
  if (!ok || !fs.existsSync(built)) {
    fs.rmSync(scratch, { recursive: true, force: true });
    throw new Error(
      'Could not get better-sqlite3 for Electron: no prebuilt binary could be downloaded and compiling failed (see the output above).',
    );
  }
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const tmp = `${target}.tmp-${process.pid}`;
  fs.copyFileSync(built, tmp);
  fs.renameSync(tmp, target); // atomic: a half-copied binary is never picked up
  fs.rmSync(scratch, { recursive: true, force: true });
  return { target, built: true };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  try {
    const { target, built } = ensure();
    console.log(`${built ? 'Built' : 'Using'} Electron's better-sqlite3: ${path.relative(root, target)}`);
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
