/**
 * The two-ABI design for better-sqlite3: Electron's build lives in .native/, keyed by Electron
 * version, platform and Electron's arch; the Node build in node_modules is never touched; and
 * only a binary whose ABI and arch match this Electron is ever stored or used. (Fetching or
 * compiling the real Electron binary needs the internet, which this machine lacks: the build
 * step is replaced by one that produces what a given mistake would produce.)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { appPaths } from '../../src/main/app-paths';
import { electronNativeBindingPath } from '../../src/main/electron/native';
import {
  builderEnv,
  copyPackage,
  electronVersion,
  ensure,
  run,
  spawnOptions,
  targetPath,
} from '../../scripts/ensure-electron-native.mjs';
import { electronAbiOnDisk, nodeBuild, writeAbiStandIn } from '../support/native-standin';

const root = appPaths().root;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-native-test-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const quiet = { log() {}, warn() {} } as unknown as Console;
const builtIn = (work: string) => path.join(work, 'build', 'Release', 'better_sqlite3.node');

describe('Electron native module', () => {
  it('keys the Electron build by Electron version, platform and arch, away from the Node build', () => {
    const version = JSON.parse(fs.readFileSync(path.join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
    expect(electronVersion()).toBe(version);
    expect(targetPath()).toBe(
      path.join(root, '.native', `electron-${version}-${process.platform}-${process.arch}`, 'better_sqlite3.node'),
    );
    expect(path.relative(path.join(root, 'node_modules'), targetPath()).startsWith('..')).toBe(true);
  });

  it('the Electron shell looks for the binary exactly where the script puts it', () => {
    expect(electronNativeBindingPath(root, electronVersion())).toBe(targetPath());
  });

  it('never passes npm settings to the build: npm_config_nodedir made node-gyp build for the system Node', () => {
    const env = builderEnv({
      PATH: '/usr/bin',
      npm_config_nodedir: '/usr',
      NPM_CONFIG_NODEDIR: '/usr',
      npm_config_target: '20.0.0',
      npm_config_runtime: 'node',
      npm_config_https_proxy: 'http://proxy:3128',
    });
    expect(env).toEqual({ PATH: '/usr/bin', npm_config_https_proxy: 'http://proxy:3128' });
  });

  it('runs build steps without a shell, so a program path with spaces works (C:\\Program Files on Windows)', () => {
    expect(spawnOptions(tmp, {}).shell).toBe(false);
    const spaced = path.join(tmp, 'Program Files', 'nodejs');
    fs.mkdirSync(spaced, { recursive: true });
    const node = path.join(spaced, path.basename(process.execPath));
    fs.symlinkSync(process.execPath, node);
    const marker = path.join(tmp, 'ran with spaces');
    expect(run(node, ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ok')`], tmp, process.env)).toBe(true);
    expect(fs.readFileSync(marker, 'utf8')).toBe('ok');
  });

  it('copies the package from a checkout under a folder named build, leaving out only its own build/', () => {
    const pkg = path.join(tmp, 'build', 'checkout', 'better-sqlite3');
    fs.mkdirSync(path.join(pkg, 'lib'), { recursive: true });
    fs.mkdirSync(path.join(pkg, 'build', 'Release'), { recursive: true });
    fs.writeFileSync(path.join(pkg, 'package.json'), '{}');
    fs.writeFileSync(path.join(pkg, 'lib', 'index.js'), '');
    fs.writeFileSync(path.join(pkg, 'build', 'Release', 'better_sqlite3.node'), '');
    const dest = path.join(tmp, 'copy');
    copyPackage(pkg, dest);
    expect(fs.existsSync(path.join(dest, 'package.json'))).toBe(true);
    expect(fs.existsSync(path.join(dest, 'lib', 'index.js'))).toBe(true);
    expect(fs.existsSync(path.join(dest, 'build'))).toBe(false);
  });

  it('refuses to store a build made for the Node ABI, with the reason, and hands the build step a clean env', () => {
    const cacheDir = path.join(tmp, 'cache-wrong');
    const before = process.env.npm_config_nodedir;
    process.env.npm_config_nodedir = '/usr';
    let seenEnv: Record<string, string | undefined> = {};
    try {
      expect(() =>
        ensure({
          cacheDir,
          log: quiet,
          build: (work: string, opts: { env: Record<string, string | undefined> }) => {
            seenEnv = opts.env;
            fs.mkdirSync(path.dirname(builtIn(work)), { recursive: true });
            fs.copyFileSync(nodeBuild, builtIn(work)); // what building against the system Node's headers gives
            return true;
          },
        }),
      ).toThrow(new RegExp(`built for Node ABI ${process.versions.modules}.*needs ABI ${electronAbiOnDisk()}`));
    } finally {
      if (before === undefined) delete process.env.npm_config_nodedir;
      else process.env.npm_config_nodedir = before;
    }
    expect(seenEnv.npm_config_nodedir).toBeUndefined();
    expect(fs.existsSync(targetPath(undefined, undefined, undefined, cacheDir))).toBe(false);
  });

  it('discards a stored wrong-ABI binary and rebuilds; stores a right one; then uses it without building', () => {
    const cacheDir = path.join(tmp, 'cache-rebuild');
    const target = targetPath(undefined, undefined, undefined, cacheDir);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(nodeBuild, target); // the bad cache the old script left behind
    const nodeBefore = fs.statSync(nodeBuild);
    let builds = 0;
    const build = (work: string) => {
      builds++;
      writeAbiStandIn(builtIn(work), electronAbiOnDisk());
      return true;
    };
    expect(ensure({ cacheDir, build, log: quiet })).toEqual({ target, built: true });
    expect(builds).toBe(1);
    expect(ensure({ cacheDir, build, log: quiet })).toEqual({ target, built: false });
    expect(builds).toBe(1);
    const nodeAfter = fs.statSync(nodeBuild);
    expect([nodeAfter.size, nodeAfter.mtimeMs]).toEqual([nodeBefore.size, nodeBefore.mtimeMs]);
  });

  it('a placeholder that is no binary at all is not taken for a build', () => {
    const cacheDir = path.join(tmp, 'cache-placeholder');
    const target = targetPath(undefined, undefined, undefined, cacheDir);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, 'placeholder');
    expect(() => ensure({ cacheDir, build: () => false, log: quiet })).toThrow(/Could not get better-sqlite3 for Electron/);
    expect(fs.existsSync(target)).toBe(false);
  });
});
