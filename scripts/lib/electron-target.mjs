/**
 * What the installed Electron is: its version, the Node ABI (NODE_MODULE_VERSION) its embedded
 * Node expects, and the CPU architecture of its binary. Native modules for Electron must match
 * all three; none of them may be taken from the Node running this script (x64 Node under
 * Rosetta on Apple Silicon gets an arm64 Electron, and Node's ABI is not Electron's).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { binaryArch } from './native-binary.mjs';

export function electronDir(root) {
  return path.join(root, 'node_modules', 'electron');
}

export function electronVersion(root) {
  return JSON.parse(fs.readFileSync(path.join(electronDir(root), 'package.json'), 'utf8')).version;
}

/**
 * The ABI Electron's Node expects. The electron package ships it in `abi_version`; older
 * packages did not, so node-abi's table (installed with prebuild-install) is the fallback.
 */
export function electronAbi(root, version = electronVersion(root)) {
  const file = path.join(electronDir(root), 'abi_version');
  if (fs.existsSync(file)) {
    const abi = Number(fs.readFileSync(file, 'utf8').trim());
    if (Number.isInteger(abi) && abi > 0) return abi;
  }
  try {
    const nodeAbi = createRequire(path.join(root, 'package.json'))('node-abi');
    return Number(nodeAbi.getAbi(version, 'electron'));
  } catch (err) {
    throw new Error(`Cannot tell which Node ABI Electron ${version} needs: ${err.message}`, { cause: err });
  }
}

/** The Electron executable `npm install` put in place, or null when it is not installed. */
export function electronExecutable(root) {
  try {
    const rel = fs.readFileSync(path.join(electronDir(root), 'path.txt'), 'utf8').trim();
    const exe = path.join(electronDir(root), 'dist', rel);
    return fs.existsSync(exe) ? exe : null;
  } catch {
    return null;
  }
}

/**
 * The Electron executable `electron .` is about to run, downloaded first if it is not there yet:
 * Electron 45's package fetches its binary lazily, the first time `require('electron')` (which
 * `electron .` does) runs — after any check made before it would have found nothing. Loading the
 * package here does the same download at the same point, so the checks that follow see the binary.
 * `load` stands in for `require('electron')` (it returns the executable's path).
 */
export function electronExecutableForLaunch(root, load = () => createRequire(path.join(root, 'package.json'))('electron')) {
  const present = electronExecutable(root);
  if (present) return present;
  const loaded = load();
  if (typeof loaded === 'string' && fs.existsSync(loaded)) return loaded;
  return electronExecutable(root);
}

/**
 * The architecture Electron runs as. With the binary installed, its header decides (a
 * universal macOS build runs natively: the host's own arch when the slice exists). Without it,
 * the same choice Electron's installer makes: ELECTRON_INSTALL_ARCH, npm_config_arch, else
 * process.arch — except that x64 Node under Rosetta gets the arm64 build.
 */
export function electronArch(root, host = {}) {
  const env = host.env ?? process.env;
  const platform = host.platform ?? process.platform;
  const nodeArch = host.arch ?? process.arch;
  const exe = host.executable !== undefined ? host.executable : electronExecutable(root);
  if (exe) {
    const info = binaryArch(exe);
    if (info?.arches.length === 1) return info.arches[0];
    if (info?.arches.length) {
      const native = platform === 'darwin' && underRosetta(host) ? 'arm64' : nodeArch;
      return info.arches.includes(native) ? native : info.arches[0];
    }
  }
  const chosen = env.ELECTRON_INSTALL_ARCH || env.npm_config_arch || nodeArch;
  if (platform === 'darwin' && chosen === 'x64' && env.npm_config_arch === undefined && underRosetta(host)) return 'arm64';
  return chosen;
}

function underRosetta(host) {
  if (host.rosetta !== undefined) return host.rosetta;
  try {
    return execFileSync('sysctl', ['-in', 'sysctl.proc_translated'], { encoding: 'utf8' }).trim() === '1';
  } catch {
    return false;
  }
}
