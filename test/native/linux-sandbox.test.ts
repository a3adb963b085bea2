/** When `npm start` warns about Ubuntu's AppArmor user-namespace restriction, and what it says. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sandboxAdvice } from '../../scripts/lib/linux-sandbox.mjs';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'circa-sandbox-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const executable = '/home/a/circa/node_modules/electron/dist/electron';
const emptyProfiles = fs.mkdtempSync(path.join(tmp, 'apparmor-'));
const base = { platform: 'linux', executable, restricted: true, profileDir: emptyProfiles };

describe('sandboxAdvice', () => {
  it('explains both fixes when namespaces are restricted and chrome-sandbox is not setuid root', () => {
    const advice = sandboxAdvice({ ...base, sandboxStat: { uid: 1000, mode: 0o100755 } })!;
    expect(advice).toContain('The SUID sandbox helper binary was found, but is not configured correctly');
    expect(advice).toContain(`profile circa-dev-electron "${executable}" flags=(unconfined)`);
    expect(advice).toContain('userns,');
    expect(advice).toContain("sudo chmod 4755 '/home/a/circa/node_modules/electron/dist/chrome-sandbox'");
  });

  it('says nothing when the helper is setuid root, when a profile names this Electron, or when unrestricted', () => {
    expect(sandboxAdvice({ ...base, sandboxStat: { uid: 0, mode: 0o104755 } })).toBeNull();
    const profiles = fs.mkdtempSync(path.join(tmp, 'apparmor-'));
    fs.writeFileSync(path.join(profiles, 'circa-dev-electron'), `profile circa-dev-electron "${executable}" {\n userns,\n}\n`);
    expect(sandboxAdvice({ ...base, sandboxStat: null, profileDir: profiles })).toBeNull();
    expect(sandboxAdvice({ ...base, restricted: false, sandboxStat: null })).toBeNull();
  });

  it('is Linux-only', () => {
    expect(sandboxAdvice({ ...base, platform: 'darwin', sandboxStat: null })).toBeNull();
    expect(sandboxAdvice({ ...base, platform: 'win32', sandboxStat: null })).toBeNull();
  });
});
