/**
 * Ubuntu 23.10+ (24.04 LTS) restricts unprivileged user namespaces through AppArmor. Chromium's
 * sandbox then needs either an AppArmor profile that grants the Electron binary `userns`, or the
 * setuid helper `chrome-sandbox` owned by root with mode 4755 — otherwise Electron aborts at
 * launch with "The SUID sandbox helper binary was found, but is not configured correctly"
 * (electron/electron#42510). The installers handle this themselves (the .deb installs an
 * AppArmor profile, the AppImage falls back to --no-sandbox when namespaces are unavailable);
 * the Electron in node_modules used by `npm start` does not, so this explains the fix up front.
 */
import fs from 'node:fs';
import path from 'node:path';
import { electronExecutableForLaunch } from './electron-target.mjs';

export const RESTRICT_SYSCTL = '/proc/sys/kernel/apparmor_restrict_unprivileged_userns';

function readOr(file, fallback) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}

/** Whether some AppArmor profile in `dir` names the Electron binary (then it can grant userns). */
export function hasAppArmorProfileFor(executable, dir = '/etc/apparmor.d') {
  let names;
  try {
    names = fs.readdirSync(dir);
  } catch {
    return false;
  }
  return names.some((name) => {
    const file = path.join(dir, name);
    try {
      return fs.statSync(file).isFile() && fs.readFileSync(file, 'utf8').includes(executable);
    } catch {
      return false;
    }
  });
}

/**
 * Instructions when this Electron will be stopped by the sandbox check, else null. Every input
 * can be given (tests); by default they are read from this machine.
 * @param {{ platform?: string, executable: string, restricted?: boolean, sandboxStat?: { uid: number, mode: number } | null, profileDir?: string }} o
 */
export function sandboxAdvice(o) {
  if ((o.platform ?? process.platform) !== 'linux') return null;
  const restricted = o.restricted ?? readOr(RESTRICT_SYSCTL, '0').trim() === '1';
  if (!restricted) return null;
  const helper = path.join(path.dirname(o.executable), 'chrome-sandbox');
  let stat = o.sandboxStat;
  if (stat === undefined) {
    try {
      stat = fs.statSync(helper);
    } catch {
      stat = null;
    }
  }
  if (stat && stat.uid === 0 && (stat.mode & 0o4777) === 0o4755) return null;
  if (hasAppArmorProfileFor(o.executable, o.profileDir)) return null;
  const profile = 'circa-dev-electron';
  return [
    'This Linux restricts unprivileged user namespaces (Ubuntu 23.10 and later), so Electron will stop with',
    '"The SUID sandbox helper binary was found, but is not configured correctly" unless you allow its sandbox once:',
    '',
    '  # either give this Electron an AppArmor profile (what the Circa .deb installs for the app itself):',
    `  printf 'abi <abi/4.0>,\\ninclude <tunables/global>\\nprofile ${profile} "${o.executable}" flags=(unconfined) {\\n  userns,\\n}\\n' \\`,
    `    | sudo tee /etc/apparmor.d/${profile} && sudo apparmor_parser -r /etc/apparmor.d/${profile}`,
    '',
    "  # or make Chromium's setuid sandbox helper usable:",
    `  sudo chown root:root '${helper}' && sudo chmod 4755 '${helper}'`,
    '',
    'Both survive until node_modules/electron is reinstalled. See "Ubuntu 24.04" in the README.',
  ].join('\n');
}

/**
 * The advice `npm start` prints before launching: for the executable `electron .` will run, which
 * on a first start is downloaded here rather than after the check (electronExecutableForLaunch).
 * @param {string} root
 * @param {Omit<Parameters<typeof sandboxAdvice>[0], 'executable'> & { load?: () => unknown }} [o]
 */
export function launchSandboxAdvice(root, o = {}) {
  const { load, ...rest } = o;
  const executable = electronExecutableForLaunch(root, load);
  return executable ? sandboxAdvice({ ...rest, executable }) : null;
}
