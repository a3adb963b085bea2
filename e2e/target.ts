/**
 * One set of specs, two targets: the real Electron app via Playwright's _electron where an
 * Electron binary is installed, otherwise browser mode in Chromium. CIRCA_E2E_TARGET forces one.
 */
import fs from 'node:fs';
import path from 'node:path';

export type Target = 'electron' | 'browser';

export function electronBinary(): string | null {
  const dir = path.resolve('node_modules', 'electron');
  try {
    const rel = fs.readFileSync(path.join(dir, 'path.txt'), 'utf8').trim();
    const bin = path.join(dir, 'dist', rel);
    return fs.existsSync(bin) ? bin : null;
  } catch {
    return null;
  }
}

export function chosenTarget(): Target {
  const forced = process.env.CIRCA_E2E_TARGET;
  if (forced === 'electron' || forced === 'browser') return forced;
  return electronBinary() ? 'electron' : 'browser';
}

export const chromiumPath = () => process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
