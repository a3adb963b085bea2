/**
 * The main window's options, free of electron so a test can read them: sandboxed, isolated, no
 * Node in the page — and in an installed build no developer tools at all (no menu item, no
 * shortcut, no `openDevTools()`), so the shipped app offers nothing the archivist should not use.
 */
import path from 'node:path';

export function mainWindowOptions(opts: { appRoot: string; isPackaged: boolean }) {
  return {
    width: 1360,
    height: 880,
    minWidth: 960,
    minHeight: 600,
    title: 'Circa',
    icon: path.join(opts.appRoot, 'resources', 'icon.png'),
    backgroundColor: '#f7f4ee',
    show: false,
    webPreferences: {
      preload: path.join(opts.appRoot, 'out', 'preload', 'index.cjs'),
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
      devTools: !opts.isPackaged,
    },
  };
}
