/**
 * The first `npm start` on Ubuntu 24.04: Electron 45's package downloads its binary lazily, at the
 * first `require('electron')` — which `electron .` does after prestart has looked. Before the fix
 * prestart looked first, found no binary and printed no sandbox advice, and Electron then stopped
 * with the SUID sandbox error. A stand-in electron package (a real folder and a real require) does
 * the "download" the way Electron's index.js does: it writes dist/ and path.txt, and returns the path.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { electronExecutable, electronExecutableForLaunch } from '../../scripts/lib/electron-target.mjs';
import { launchSandboxAdvice } from '../../scripts/lib/linux-sandbox.mjs';
import { tempDir } from '../support/core';

/** A checkout whose node_modules/electron has not fetched its binary yet. */
function checkoutBeforeFirstStart(): string {
  const root = tempDir();
  const pkg = path.join(root, 'node_modules', 'electron');
  fs.mkdirSync(pkg, { recursive: true });
  fs.writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'electron', version: '45.5.0', main: 'index.js' }));
  fs.writeFileSync(
    path.join(pkg, 'index.js'),
    `const fs = require('fs'); const path = require('path');
     const exe = path.join(__dirname, 'dist', 'electron');
     if (!fs.existsSync(exe)) {
       fs.mkdirSync(path.dirname(exe), { recursive: true });
       fs.writeFileSync(exe, '#!/bin/sh\\n', { mode: 0o755 });
       fs.writeFileSync(path.join(__dirname, 'path.txt'), 'electron');
       fs.writeFileSync(path.join(__dirname, 'downloads'), 'once');
     }
     module.exports = exe;`,
  );
  return root;
}

describe('sandbox advice on the first npm start', () => {
  const restricted = { platform: 'linux', restricted: true, sandboxStat: null, profileDir: tempDir() };

  it('fetches the binary before looking, as electron . would, and then gives the advice', () => {
    const root = checkoutBeforeFirstStart();
    expect(electronExecutable(root)).toBeNull(); // what prestart used to look at: nothing yet
    const advice = launchSandboxAdvice(root, restricted);
    const exe = path.join(root, 'node_modules', 'electron', 'dist', 'electron');
    expect(advice).toContain('The SUID sandbox helper binary was found, but is not configured correctly');
    expect(advice).toContain(path.join(path.dirname(exe), 'chrome-sandbox'));
    expect(electronExecutable(root)).toBe(exe);
  });

  it('uses a binary already there without loading the package again', () => {
    const root = checkoutBeforeFirstStart();
    const first = electronExecutableForLaunch(root);
    let loaded = false;
    expect(
      electronExecutableForLaunch(root, () => {
        loaded = true;
        return null;
      }),
    ).toBe(first);
    expect(loaded).toBe(false);
  });

  it('says nothing where the sandbox can start', () => {
    expect(launchSandboxAdvice(checkoutBeforeFirstStart(), { ...restricted, restricted: false })).toBeNull();
  });
});
