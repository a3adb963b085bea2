/**
 * Circa's own application menu (src/main/electron/app-menu.ts) and the one About dialog, under
 * plain Node: without it an installer ships Electron's default menu — Reload, Toggle Developer
 * Tools, Help links to electronjs.org.
 */
import { describe, expect, it } from 'vitest';
import { appMenuTemplate, menuEntries, type MenuItemSpec } from '../../src/main/electron/app-menu';
import { aboutDialog } from '../../src/main/electron/about';
import { mainWindowOptions } from '../../src/main/electron/window-options';

const labels = (items: MenuItemSpec[]) => items.map((i) => ('label' in i ? (i.label ?? '').replace('&', '') : null));
const submenu = (items: MenuItemSpec[], label: string) => {
  const found = items.find((i) => 'submenu' in i && i.label.replace('&', '') === label);
  if (!found || !('submenu' in found)) throw new Error(`no ${label} menu`);
  return found.submenu;
};

describe('the application menu', () => {
  it('macOS: the app menu (About, Hide, Quit) first, then File, Edit, View, Window, Help', () => {
    const menu = appMenuTemplate({ platform: 'darwin', isPackaged: true });
    expect(labels(menu)).toEqual(['Circa', 'File', 'Edit', 'View', 'Window', 'Help']);
    expect(menuEntries(submenu(menu, 'Circa'))).toEqual(['about', 'services', 'hide', 'hideOthers', 'unhide', 'quit']);
    expect(menuEntries(submenu(menu, 'File'))).toEqual(['import', 'export', 'backup', 'close']);
    expect(menuEntries(submenu(menu, 'Help'))).toEqual(['show-library', 'open-logs']);
  });

  it('Windows and Linux: File ends with Quit, About is in Help, and menus have access keys', () => {
    for (const platform of ['win32', 'linux'] as const) {
      const menu = appMenuTemplate({ platform, isPackaged: true });
      expect(menu.map((i) => ('label' in i ? i.label : null))).toEqual(['&File', '&Edit', '&View', '&Window', '&Help']);
      expect(menuEntries(submenu(menu, 'File'))).toEqual(['import', 'export', 'backup', 'quit']);
      expect(menuEntries(submenu(menu, 'Help'))).toEqual(['about', 'show-library', 'open-logs']);
    }
  });

  it('View has zoom and full screen; Edit the clipboard; each platform one About and one Quit', () => {
    for (const platform of ['darwin', 'win32', 'linux'] as const) {
      const menu = appMenuTemplate({ platform, isPackaged: true });
      expect(menuEntries(submenu(menu, 'View'))).toEqual(['resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen']);
      expect(menuEntries(submenu(menu, 'Edit'))).toEqual(
        expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll']),
      );
      const all = menuEntries(menu);
      expect(all.filter((e) => e === 'about')).toHaveLength(1);
      expect(all.filter((e) => e === 'quit')).toHaveLength(1);
    }
  });

  it('an installed build has no Reload and no developer tools, anywhere; a development build keeps them', () => {
    for (const platform of ['darwin', 'win32', 'linux'] as const) {
      const shipped = menuEntries(appMenuTemplate({ platform, isPackaged: true }));
      for (const dev of ['reload', 'forceReload', 'toggleDevTools'] as const) expect(shipped).not.toContain(dev);
      expect(menuEntries(appMenuTemplate({ platform, isPackaged: false }))).toContain('toggleDevTools');
    }
    expect(mainWindowOptions({ appRoot: '/opt/Circa/resources/app.asar', isPackaged: true }).webPreferences.devTools).toBe(false);
    expect(mainWindowOptions({ appRoot: '/src/circa', isPackaged: false }).webPreferences.devTools).toBe(true);
  });

  it('no item links to electronjs.org or anywhere else on the web', () => {
    expect(JSON.stringify(appMenuTemplate({ platform: 'linux', isPackaged: true }))).not.toMatch(/https?:|electron/i);
  });
});

describe('About Circa', () => {
  it('names the version, what it runs on, and where the library and the logs are', () => {
    const about = aboutDialog({
      version: '0.1.0',
      electron: '45.5.0',
      chrome: '142.0.0.0',
      node: '22.20.0',
      platform: 'linux',
      arch: 'x64',
      libraryDir: '/home/a/.config/Circa/Library',
      logsDir: '/home/a/.config/Circa/logs',
    });
    expect(about.message).toBe('Circa 0.1.0');
    expect(about.detail).toContain('Electron 45.5.0');
    expect(about.detail).toContain('Library: /home/a/.config/Circa/Library');
    expect(about.detail).toContain('Logs and crash reports: /home/a/.config/Circa/logs');
  });
});
