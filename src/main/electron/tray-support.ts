/**
 * Whether a tray icon will actually be visible. Electron on Linux shows its tray through the
 * StatusNotifierItem protocol, which needs a StatusNotifierWatcher on the session bus (KDE,
 * Cinnamon, XFCE's plugin, Ubuntu's AppIndicator extension). Stock GNOME has none: `new Tray()`
 * succeeds and nothing appears, so hiding the window there would leave an invisible app. When in
 * doubt the answer is "no tray" — the window then minimises instead of hiding, which is safe.
 */
import { execFile } from 'node:child_process';

const TRAY_DESKTOPS = ['KDE', 'XFCE', 'X-CINNAMON', 'CINNAMON', 'MATE', 'LXQT', 'BUDGIE', 'UNITY', 'DEEPIN', 'PANTHEON'];

/** `gdbus call … NameHasOwner` prints `(true,)` or `(false,)`. */
export function parseNameHasOwner(stdout: string): boolean | null {
  const m = /\((true|false),?\)/.exec(stdout);
  return m ? m[1] === 'true' : null;
}

export function trayVisible(opts: { platform: NodeJS.Platform; watcher: boolean | null; desktop?: string }): boolean {
  if (opts.platform !== 'linux') return true; // Windows notification area, macOS menu bar
  if (opts.watcher !== null) return opts.watcher;
  const desktops = (opts.desktop ?? '').toUpperCase().split(':');
  return desktops.some((d) => TRAY_DESKTOPS.includes(d));
}

/** Asks the session bus whether a StatusNotifierWatcher is running; null when it cannot tell. */
export function probeStatusNotifierWatcher(timeoutMs = 2000): Promise<boolean | null> {
  return new Promise((resolve) => {
    execFile(
      'gdbus',
      [
        'call',
        '--session',
        '--dest',
        'org.freedesktop.DBus',
        '--object-path',
        '/org/freedesktop/DBus',
        '--method',
        'org.freedesktop.DBus.NameHasOwner',
        'org.kde.StatusNotifierWatcher',
      ],
      { timeout: timeoutMs, windowsHide: true },
      (err, stdout) => resolve(err ? null : parseNameHasOwner(String(stdout))),
    );
  });
}

export type CloseAction = 'close' | 'hide' | 'minimize';

/** What closing the window does: it never quits Circa, and never leaves it with no way back. */
export function closeAction(opts: { quitting: boolean; platform: NodeJS.Platform; trayVisible: boolean }): CloseAction {
  if (opts.quitting) return 'close';
  if (opts.platform === 'darwin') return 'hide'; // the Dock icon brings it back ('activate')
  return opts.trayVisible ? 'hide' : 'minimize';
}
