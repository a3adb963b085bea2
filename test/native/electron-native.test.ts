/**
 * The two-ABI design for better-sqlite3: Electron's build lives in .native/, keyed by Electron
 * version, platform and arch; the Node build in node_modules is never touched. (Building the
 * Electron binary needs the internet, which this machine lacks; the lookup and the "already
 * built" path are what can be checked here.)
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { appPaths } from '../../src/main/app-paths';
import { electronNativeBindingPath } from '../../src/main/electron/native';

const root = appPaths().root;
const script = path.join(root, 'scripts', 'ensure-electron-native.mjs');
const nodeBuild = path.join(root, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');

describe('Electron native module', () => {
  it('keys the Electron build by Electron version, platform and arch, away from the Node build', async () => {
    const { targetPath, electronVersion } = await import(script);
    const version = JSON.parse(fs.readFileSync(path.join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
    expect(electronVersion()).toBe(version);
    expect(targetPath()).toBe(
      path.join(root, '.native', `electron-${version}-${process.platform}-${process.arch}`, 'better_sqlite3.node'),
    );
    expect(path.relative(path.join(root, 'node_modules'), targetPath()).startsWith('..')).toBe(true);
  });

  it('uses an existing Electron build without rebuilding anything, and leaves the Node build alone', async () => {
    const { targetPath } = await import(script);
    const target: string = targetPath();
    const existed = fs.existsSync(target);
    const nodeBefore = fs.statSync(nodeBuild);
    if (!existed) {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, 'placeholder: stands in for a built binary');
    }
    try {
      const r = spawnSync(process.execPath, [script], { encoding: 'utf8' });
      expect(r.status).toBe(0);
      expect(r.stdout).toContain("Using Electron's better-sqlite3");
      const nodeAfter = fs.statSync(nodeBuild);
      expect([nodeAfter.size, nodeAfter.mtimeMs]).toEqual([nodeBefore.size, nodeBefore.mtimeMs]);
    } finally {
      if (!existed) fs.rmSync(path.dirname(target), { recursive: true, force: true });
    }
  });

  it('the Electron shell looks for the binary exactly where the script puts it', async () => {
    const { targetPath, electronVersion } = await import(script);
    expect(electronNativeBindingPath(root, electronVersion())).toBe(targetPath());
  });
});
