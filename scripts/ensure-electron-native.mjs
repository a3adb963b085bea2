#!/usr/bin/env node
/**
 * Makes sure Electron has its own ABI build of better-sqlite3 before `npm start` (or `npm run
 * dist`) uses it.
 *
 * Node (npm test, browser mode, the headless runner) loads node_modules/better-sqlite3/build —
 * compiled by `npm install` for this Node. Electron embeds a different Node ABI, so we build a
 * second copy for it into .native/electron-<version>-<platform>-<arch>/better_sqlite3.node and
 * the Electron shell passes that file to better-sqlite3 as `nativeBinding` (the packaged app
 * carries the same file in its resources, see electron-builder.config.mjs). The Node build is
 * never rebuilt or overwritten, so running one mode can never break the other.
 *
 * How: copy the better-sqlite3 package to a scratch folder and, there, fetch the published
 * prebuilt binary for this Electron (prebuild-install), falling back to compiling it against
 * Electron's headers (node-gyp). Both need the internet once; the result is cached — but only
 * after its ABI and architecture have been read from the file and match this Electron, so a
 * wrong binary is never stored and a wrong stored one is rebuilt.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { binaryArch, moduleVersion } from './lib/native-binary.mjs';
import { electronAbi, electronArch, electronVersion as installedElectronVersion } from './lib/electron-target.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'package.json'));

export function electronVersion() {
  return installedElectronVersion(root);
}

/** @param {string} [cacheDir] */
export function targetPath(
  version = electronVersion(),
  platform = process.platform,
  arch = electronArch(root),
  cacheDir = undefined,
) {
  return path.join(cacheDir ?? path.join(root, '.native'), `electron-${version}-${platform}-${arch}`, 'better_sqlite3.node');
}

/** npm settings a build step may still use: reaching the network through a proxy or private CA. */
const NETWORK_SETTINGS = new Set([
  'npm_config_proxy',
  'npm_config_http_proxy',
  'npm_config_https_proxy',
  'npm_config_noproxy',
  'npm_config_no_proxy',
  'npm_config_cafile',
  'npm_config_ca',
  'npm_config_strict_ssl',
]);

/**
 * The environment for the build steps. Run through `npm start`, npm exports its settings (from
 * any .npmrc and the environment) as npm_config_* — and node-gyp obeys npm_config_nodedir (e.g.
 * CI's `nodedir=/usr`, meant for the Node build) over `--target`, silently building against the
 * system Node's headers. So every npm setting except the network ones is dropped; the target
 * comes from our arguments alone.
 */
export function builderEnv(env = process.env) {
  const out = {};
  for (const [key, value] of Object.entries(env)) {
    const k = key.toLowerCase();
    if (k.startsWith('npm_config_') && !NETWORK_SETTINGS.has(k)) continue;
    out[key] = value;
  }
  return out;
}

/**
 * Options for every child process. No shell: with one, Windows runs
 * `C:\Program Files\nodejs\node.exe` as `C:\Program`; arguments go to the program as they are.
 */
export function spawnOptions(cwd, env) {
  return { cwd, env, stdio: 'inherit', shell: false, windowsHide: true };
}

export function run(cmd, args, cwd, env = builderEnv()) {
  const r = spawnSync(cmd, args, spawnOptions(cwd, env));
  return r.status === 0;
}

/**
 * Copies the better-sqlite3 package without its build/ folder (the Node build). The filter looks
 * at the path inside the package only: a checkout under any folder called `build` must still copy.
 */
export function copyPackage(from, to) {
  fs.cpSync(from, to, {
    recursive: true,
    filter: (src) => path.relative(from, src).split(path.sep)[0] !== 'build',
  });
}

/** Why `file` is not a better-sqlite3 binary for this Electron, or null when it is. */
export function binaryProblem(file, want) {
  let abi;
  let arch;
  try {
    abi = moduleVersion(file);
    arch = binaryArch(file);
  } catch (err) {
    return `it cannot be read (${err.message})`;
  }
  if (!arch) return 'it is not a native binary';
  if (abi === null) return 'it is not a Node addon';
  if (abi !== 'napi' && abi !== want.abi)
    return `it was built for Node ABI ${abi}${abi === Number(process.versions.modules) ? ` (this Node, ${process.version})` : ''}, but Electron ${want.version} needs ABI ${want.abi}`;
  if (!arch.arches.includes(want.arch)) return `it was built for ${arch.arches.join('+')}, but Electron runs as ${want.arch}`;
  return null;
}

function npmBundledNodeGyp(env) {
  // npm ships node-gyp; when run through npm, npm_execpath points at npm's own files.
  const npmDir = env.npm_execpath
    ? path.resolve(path.dirname(env.npm_execpath), '..')
    : path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm');
  return path.join(npmDir, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
}

/** Fetches the prebuilt binary, else compiles; leaves the result in work/build/Release. */
export function downloadOrCompile(work, { version, arch, platform, env }) {
  const prebuild = require.resolve('prebuild-install/bin.js');
  return (
    run(
      process.execPath,
      [prebuild, '--runtime=electron', `--target=${version}`, `--arch=${arch}`, `--platform=${platform}`],
      work,
      env,
    ) ||
    run(
      process.execPath,
      [
        npmBundledNodeGyp(process.env),
        'rebuild',
        '--release',
        '--runtime=electron',
        `--target=${version}`,
        `--arch=${arch}`,
        '--dist-url=https://electronjs.org/headers',
      ],
      work,
      env,
    )
  );
}

/**
 * Returns the path of a verified Electron build, building it when there is none (or only a
 * wrong one). `build` and `cacheDir` are for tests.
 * @param {{ build?: (work: string, opts: { version: string, abi: number, arch: string, platform: string, env: Record<string, string | undefined> }) => boolean, cacheDir?: string, log?: { log(msg: string): void, warn(msg: string): void } }} [opts]
 */
export function ensure({ build = downloadOrCompile, cacheDir, log = console } = {}) {
  const version = electronVersion();
  const want = { version, abi: electronAbi(root, version), arch: electronArch(root), platform: process.platform };
  const target = targetPath(version, want.platform, want.arch, cacheDir);
  if (fs.existsSync(target)) {
    const problem = binaryProblem(target, want);
    if (!problem) return { target, built: false };
    log.warn(`Discarding the stored ${path.basename(target)}: ${problem}.`);
    fs.rmSync(target, { force: true });
  }

  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 22 || (major === 22 && minor < 12)) {
    log.warn(`Note: Electron ${version}'s installer wants Node 22.12 or newer (this is ${process.versions.node}).`);
  }
  const pkgDir = path.dirname(require.resolve('better-sqlite3/package.json'));
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-native-'));
  try {
    const work = path.join(scratch, 'better-sqlite3');
    copyPackage(pkgDir, work);
    log.log(`Building better-sqlite3 for Electron ${version} (ABI ${want.abi}, ${want.platform}-${want.arch}; one time)…`);
    const ok = build(work, { ...want, env: builderEnv() });
    const built = path.join(work, 'build', 'Release', 'better_sqlite3.node');
    if (!ok || !fs.existsSync(built)) {
      throw new Error(
        'Could not get better-sqlite3 for Electron: no prebuilt binary could be downloaded and compiling failed (see the output above).',
      );
    }
    const problem = binaryProblem(built, want);
    if (problem) throw new Error(`The better-sqlite3 just built for Electron is unusable and was not stored: ${problem}.`);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const tmp = `${target}.tmp-${process.pid}`;
    fs.copyFileSync(built, tmp);
    fs.renameSync(tmp, target); // atomic: a half-copied binary is never picked up
    return { target, built: true };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** The command line: ensure, say which file is used, or exit 1 with the reason. */
export function ensureOrExit() {
  try {
    const { target, built } = ensure();
    console.log(`${built ? 'Built' : 'Using'} Electron's better-sqlite3: ${path.relative(root, target)}`);
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) ensureOrExit();
