/**
 * One set of specs, two targets: the real Electron app via Playwright's _electron where an
 * Electron binary is installed and a display exists, otherwise browser mode in Chromium.
 * CIRCA_E2E_TARGET forces one; forcing Electron where it cannot run fails with the reason.
 */
import path from 'node:path';
import { electronExecutable } from '../scripts/lib/electron-target.mjs';

export type Target = 'electron' | 'browser';

/** The Electron executable `npm install` put in node_modules/electron, or null. */
export function electronBinary(): string | null {
  return electronExecutable(path.resolve('.'));
}

/** Why Electron cannot open a window here, or null. Linux needs an X11 or Wayland display. */
export function noDisplayReason(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string | null {
  if (platform !== 'linux' || env.DISPLAY || env.WAYLAND_DISPLAY) return null;
  return 'no display (neither DISPLAY nor WAYLAND_DISPLAY is set): run the e2e tests under a display server, e.g. `xvfb-run -a npm run test:e2e`';
}

export function chooseTarget(): { target: Target; note: string | null } {
  const forced = process.env.CIRCA_E2E_TARGET;
  if (forced === 'browser') return { target: 'browser', note: null };
  const binary = electronBinary();
  const display = noDisplayReason();
  if (forced === 'electron') {
    if (!binary) throw new Error('CIRCA_E2E_TARGET=electron, but no Electron binary is installed in node_modules/electron.');
    if (display) throw new Error(`CIRCA_E2E_TARGET=electron, but Electron cannot open a window: ${display}.`);
    return { target: 'electron', note: null };
  }
  if (binary && display) return { target: 'browser', note: `Electron is installed but has ${display}; using browser mode` };
  return { target: binary ? 'electron' : 'browser', note: null };
}

export function chosenTarget(): Target {
  return chooseTarget().target;
}

export const chromiumPath = () => process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
