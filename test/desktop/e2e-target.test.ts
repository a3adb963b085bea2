/** How the e2e run picks its target (e2e/target.ts): Electron needs its binary and a display. */
import { afterEach, describe, expect, it } from 'vitest';
import { chooseTarget, electronBinary, noDisplayReason } from '../../e2e/target';

const saved = { ...process.env };
afterEach(() => {
  for (const k of ['CIRCA_E2E_TARGET', 'DISPLAY', 'WAYLAND_DISPLAY']) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});

describe('e2e target', () => {
  it('on Linux without DISPLAY or WAYLAND_DISPLAY, says so and how to get one', () => {
    expect(noDisplayReason({}, 'linux')).toMatch(/no display.*xvfb-run -a npm run test:e2e/);
    expect(noDisplayReason({ DISPLAY: ':99' }, 'linux')).toBeNull();
    expect(noDisplayReason({ WAYLAND_DISPLAY: 'wayland-0' }, 'linux')).toBeNull();
    expect(noDisplayReason({}, 'darwin')).toBeNull();
  });

  it('forcing Electron where it cannot run fails with the reason instead of a Playwright timeout', () => {
    process.env.CIRCA_E2E_TARGET = 'electron';
    delete process.env.DISPLAY;
    delete process.env.WAYLAND_DISPLAY;
    const reason = electronBinary() ? /cannot open a window: no display/ : /no Electron binary is installed/;
    expect(() => chooseTarget()).toThrow(reason);
  });

  it('browser mode can always be forced', () => {
    process.env.CIRCA_E2E_TARGET = 'browser';
    expect(chooseTarget()).toEqual({ target: 'browser', note: null });
  });
});
