/**
 * Circa's application menu, as plain data: without Menu.setApplicationMenu an installer ships
 * Electron's default menu (Reload, Toggle Developer Tools, Help links to electronjs.org). Each
 * platform gets its own conventions — on macOS the app menu (About, Hide, Quit) and Close in
 * File; on Windows and Linux Quit at the end of File and About in Help. Items that are Circa's
 * own actions carry a command id that main.ts carries out; the rest are Electron roles. Reload
 * and the developer tools exist only in a development build. No electron import: the menu is
 * checked under plain Node (test/desktop/app-menu.test.ts); menu.ts hands it to Electron.
 */

export type MenuCommand = 'about' | 'import' | 'backup' | 'export' | 'open-logs' | 'show-library';

/** Electron menu roles Circa uses (a role brings its platform's label, shortcut and behaviour). */
export type MenuRole =
  | 'services'
  | 'hide'
  | 'hideOthers'
  | 'unhide'
  | 'quit'
  | 'close'
  | 'undo'
  | 'redo'
  | 'cut'
  | 'copy'
  | 'paste'
  | 'pasteAndMatchStyle'
  | 'delete'
  | 'selectAll'
  | 'resetZoom'
  | 'zoomIn'
  | 'zoomOut'
  | 'togglefullscreen'
  | 'minimize'
  | 'zoom'
  | 'front'
  | 'reload'
  | 'forceReload'
  | 'toggleDevTools';

export type MenuItemSpec =
  | { separator: true }
  | { role: MenuRole; label?: string }
  | { command: MenuCommand; label: string; accelerator?: string }
  | { label: string; submenu: MenuItemSpec[]; role?: 'windowMenu' | 'help' };

export interface MenuContext {
  platform: NodeJS.Platform;
  /** app.isPackaged: an installed build has no reload and no developer tools. */
  isPackaged: boolean;
}

const separator = { separator: true } as const;

export function appMenuTemplate(ctx: MenuContext): MenuItemSpec[] {
  const mac = ctx.platform === 'darwin';
  const about = { command: 'about', label: 'About Circa' } as const;
  const appMenu: MenuItemSpec = {
    label: 'Circa',
    submenu: [
      about,
      separator,
      { role: 'services' },
      separator,
      { role: 'hide', label: 'Hide Circa' },
      { role: 'hideOthers' },
      { role: 'unhide' },
      separator,
      { role: 'quit', label: 'Quit Circa' },
    ],
  };
  const file: MenuItemSpec = {
    label: mac ? 'File' : '&File',
    submenu: [
      { command: 'import', label: 'Import Photos…', accelerator: 'CmdOrCtrl+O' },
      { command: 'export', label: 'Export…', accelerator: 'CmdOrCtrl+E' },
      separator,
      { command: 'backup', label: 'Back Up Now' },
      separator,
      // macOS closes the window from File (Circa keeps working); elsewhere Quit ends File.
      mac ? { role: 'close', label: 'Close Window' } : { role: 'quit', label: 'Quit Circa' },
    ],
  };
  const edit: MenuItemSpec = {
    label: mac ? 'Edit' : '&Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      separator,
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      ...(mac ? [{ role: 'pasteAndMatchStyle' } as const] : []),
      { role: 'delete' },
      separator,
      { role: 'selectAll' },
    ],
  };
  const view: MenuItemSpec = {
    label: mac ? 'View' : '&View',
    submenu: [
      ...(ctx.isPackaged
        ? []
        : [{ role: 'reload' } as const, { role: 'forceReload' } as const, { role: 'toggleDevTools' } as const, separator]),
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      separator,
      { role: 'togglefullscreen' },
    ],
  };
  const windowMenu: MenuItemSpec = {
    label: mac ? 'Window' : '&Window',
    role: 'windowMenu',
    submenu: mac
      ? [{ role: 'minimize' }, { role: 'zoom' }, separator, { role: 'front' }]
      : [{ role: 'minimize' }, { role: 'close', label: 'Close Window' }],
  };
  const help: MenuItemSpec = {
    label: mac ? 'Help' : '&Help',
    role: 'help',
    submenu: [
      ...(mac ? [] : [about, separator]),
      { command: 'show-library', label: 'Show the Library Folder' },
      { command: 'open-logs', label: 'Open the Logs Folder' },
    ],
  };
  return mac ? [appMenu, file, edit, view, windowMenu, help] : [file, edit, view, windowMenu, help];
}

/** Every command and role in a template, depth first (tests and the About check use it). */
export function menuEntries(items: readonly MenuItemSpec[]): (MenuCommand | MenuRole)[] {
  return items.flatMap((item) => {
    if ('submenu' in item) return menuEntries(item.submenu);
    if ('command' in item) return [item.command];
    if ('role' in item) return [item.role];
    return [];
  });
}
