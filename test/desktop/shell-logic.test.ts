/**
 * The Electron shell's decisions, each in an electron-free module under src/main/electron and
 * checked here under plain Node: the tray, closing the window, second launches, the import
 * picker, worker flags, the user-data folder, the packaged native module and the dev CSP.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TrayPresenter, trayState, type TrayMenuItem } from '../../src/main/electron/tray-menu';
import { closeAction, parseNameHasOwner, trayVisible } from '../../src/main/electron/tray-support';
import { explicitLibraryDir, parseSecondInstanceData, secondInstanceAction } from '../../src/main/electron/second-instance';
import { importChoiceFromButton, importDialogProperties, needsImportChoice } from '../../src/main/electron/import-dialog';
import {
  isGoneWorker,
  utilityExitKind,
  utilityForkOptions,
  WINDOWS_OOM_EXIT_CODE,
  workerServiceName,
} from '../../src/main/electron/worker-options';
import { userDataDir } from '../../src/main/electron/user-data';
import { electronNativeBindingPath, nativeBinding } from '../../src/main/electron/native';
import { devCspPlugin, relaxCspMeta } from '../../src/main/electron/dev-csp';
import { appPaths } from '../../src/main/app-paths';

describe('tray', () => {
  it('rebuilds the menu only when its content changes, not on every jobs.changed', () => {
    const menus: TrayMenuItem[][] = [];
    const tips: string[] = [];
    const presenter = new TrayPresenter({ setMenu: (m) => menus.push(m), setToolTip: (t) => tips.push(t) });
    for (let i = 0; i < 100; i++) presenter.update(trayState({ running: 2, queued: 100 - i, failed: 0 }, false));
    presenter.update(trayState({ running: 2, queued: 1, failed: 0 }, false)); // same as the last: nothing
    expect(menus).toHaveLength(1);
    expect(tips).toHaveLength(100);
    presenter.update(trayState({ running: 0, queued: 1, failed: 0 }, true));
    expect(menus).toHaveLength(2);
    expect(menus[1]).toContainEqual({ id: 'toggle-pause', label: 'Resume processing' });
    expect(tips.at(-1)).toBe('Circa — 0 running, 1 queued, 0 failed (paused)');
  });

  it('knows when a Linux desktop shows no tray (GNOME without the AppIndicator extension)', () => {
    expect(parseNameHasOwner('(true,)\n')).toBe(true);
    expect(parseNameHasOwner('(false,)\n')).toBe(false);
    expect(parseNameHasOwner('Error: no bus')).toBeNull();
    expect(trayVisible({ platform: 'linux', watcher: false, desktop: 'KDE' })).toBe(false);
    expect(trayVisible({ platform: 'linux', watcher: true, desktop: 'GNOME' })).toBe(true);
    expect(trayVisible({ platform: 'linux', watcher: null, desktop: 'ubuntu:GNOME' })).toBe(false);
    expect(trayVisible({ platform: 'linux', watcher: null, desktop: 'KDE' })).toBe(true);
    expect(trayVisible({ platform: 'win32', watcher: null })).toBe(true);
  });

  it('closing the window never leaves an invisible app: without a tray it minimises', () => {
    expect(closeAction({ quitting: false, platform: 'linux', trayVisible: false })).toBe('minimize');
    expect(closeAction({ quitting: false, platform: 'linux', trayVisible: true })).toBe('hide');
    expect(closeAction({ quitting: false, platform: 'darwin', trayVisible: true })).toBe('hide');
    expect(closeAction({ quitting: true, platform: 'win32', trayVisible: true })).toBe('close');
  });
});

describe('second launch', () => {
  it('resolves --library against the second launch’s own folder, and only when one is named', () => {
    const cwd = process.cwd();
    expect(explicitLibraryDir(['circa', '--library', 'other'], {})).toBe(path.resolve(cwd, 'other'));
    expect(explicitLibraryDir(['circa', '--library=/srv/lib'], {})).toBe(path.resolve('/srv/lib'));
    expect(explicitLibraryDir(['circa'], { CIRCA_LIBRARY: '/srv/env-lib' })).toBe(path.resolve('/srv/env-lib'));
    expect(explicitLibraryDir(['circa'], {})).toBeNull();
  });

  it('with another library it offers to switch instead of silently showing the old one', () => {
    expect(secondInstanceAction('/home/a/Circa/Library', { libraryDir: '/media/archive/lib' })).toEqual({
      kind: 'offer-switch',
      libraryDir: '/media/archive/lib',
    });
    expect(secondInstanceAction('/home/a/lib', { libraryDir: '/home/a/lib/' })).toEqual({ kind: 'show' });
    expect(secondInstanceAction('/Users/a/Lib', { libraryDir: '/users/a/lib' }, 'darwin')).toEqual({ kind: 'show' });
    expect(secondInstanceAction('/home/a/lib', { libraryDir: null })).toEqual({ kind: 'show' });
  });

  it('reads another process’s additionalData defensively', () => {
    expect(parseSecondInstanceData({ libraryDir: '/x' })).toEqual({ libraryDir: '/x', openPaths: [] });
    expect(parseSecondInstanceData({ libraryDir: 'relative' })).toEqual({ libraryDir: null, openPaths: [] });
    expect(parseSecondInstanceData(null)).toEqual({ libraryDir: null, openPaths: [] });
    expect(parseSecondInstanceData('junk')).toEqual({ libraryDir: null, openPaths: [] });
    expect(parseSecondInstanceData({ libraryDir: null, openPaths: ['/photos/1920s', 'rel', 7, '/x'] })).toEqual({
      libraryDir: null,
      openPaths: ['/photos/1920s', '/x'],
    });
  });
});

describe('import picker', () => {
  it('never combines files and folders on Windows and Linux (that dialog picks folders only)', () => {
    for (const platform of ['win32', 'linux'] as const) {
      expect(needsImportChoice(platform)).toBe(true);
      expect(() => importDialogProperties(platform, 'both')).toThrow();
      expect(importDialogProperties(platform, 'files')).toEqual(['openFile', 'multiSelections']);
      expect(importDialogProperties(platform, 'folders')).toEqual(['openDirectory', 'multiSelections']);
    }
    expect(needsImportChoice('darwin')).toBe(false);
    expect(importDialogProperties('darwin', 'both')).toEqual(['openFile', 'openDirectory', 'multiSelections']);
    expect([0, 1, 2].map(importChoiceFromButton)).toEqual(['files', 'folders', null]);
  });
});

describe('workers', () => {
  it('passes the heap limit and initial size through --js-flags (a utilityProcess ignores a bare --max-old-space-size)', () => {
    const o = utilityForkOptions({ name: 'w1', heapMb: 1536, env: {} });
    expect(o.execArgv).toEqual(['--js-flags=--max-old-space-size=1536 --initial-old-space-size=128']);
    // A small limit (the out-of-memory tests use 64 MB) starts at half of it, never above it.
    expect(utilityForkOptions({ name: 'w2', heapMb: 64, env: {} }).execArgv).toEqual([
      '--js-flags=--max-old-space-size=64 --initial-old-space-size=32',
    ]);
  });
});

describe('a worker that ran out of memory', () => {
  const service = workerServiceName('w1');
  const gone = (reason: string, exitCode = 0) => ({ type: 'Utility', reason, exitCode, name: service, serviceName: service });

  it("is reported as out of memory from Electron's child-process-gone (reason oom), not as a crash", () => {
    // Before: only the utilityProcess `error` event counted, and a heap OOM never fires it.
    expect(utilityExitKind(null, gone('oom'), 5)).toBe('out_of_memory');
    expect(utilityExitKind(null, gone('memory-eviction'), 0)).toBe('out_of_memory');
    expect(utilityExitKind(null, gone('crashed', 11), 11)).toBe('crashed');
  });

  it("recognises Chromium's out-of-memory exit code on Windows (0xE0000008), signed or not", () => {
    expect(utilityExitKind(null, null, WINDOWS_OOM_EXIT_CODE)).toBe('out_of_memory');
    expect(utilityExitKind(null, null, WINDOWS_OOM_EXIT_CODE | 0)).toBe('out_of_memory');
    expect(utilityExitKind(null, gone('crashed', WINDOWS_OOM_EXIT_CODE | 0), null)).toBe('out_of_memory');
  });

  it('keeps the V8 fatal-error verdicts, and leaves an ordinary exit to its exit code', () => {
    expect(utilityExitKind({ type: 'FatalError', location: 'Reached heap limit' })).toBe('out_of_memory');
    expect(utilityExitKind({ type: 'FatalError', location: 'v8::ToLocalChecked Empty MaybeLocal' })).toBe('crashed');
    expect(utilityExitKind(null, gone('clean-exit'), 0)).toBeNull();
    expect(utilityExitKind(null, null, 1)).toBeNull();
  });

  it('matches the gone process to the worker by the service name it was started with', () => {
    expect(isGoneWorker(gone('oom'), service)).toBe(true);
    expect(isGoneWorker({ ...gone('oom'), name: 'Audio Service', serviceName: undefined }, service)).toBe(false);
    expect(isGoneWorker({ ...gone('oom'), type: 'GPU' }, service)).toBe(false);
    expect(utilityForkOptions({ name: 'w1', heapMb: 64, env: {} }).serviceName).toBe(service);
  });
});

describe('folders', () => {
  it('the user-data folder is "Circa" under the OS app-data folder; CIRCA_USER_DATA_DIR replaces it', () => {
    expect(userDataDir('/home/a/.config', {})).toBe(path.join('/home/a/.config', 'Circa'));
    expect(userDataDir('/home/a/.config', { CIRCA_USER_DATA_DIR: '/tmp/e2e-run' })).toBe(path.resolve('/tmp/e2e-run'));
  });

  it('the installed app finds its Electron better-sqlite3 in its resources, never in .native/', () => {
    const packaged = nativeBinding({
      isPackaged: true,
      resourcesPath: '/opt/Circa/resources',
      appRoot: '/opt/Circa/resources/app.asar',
    });
    expect(packaged.file).toBe(path.join('/opt/Circa/resources', 'native', 'better_sqlite3.node'));
    expect(packaged.missingHelp).not.toContain('npm');
    const dev = nativeBinding({ isPackaged: false, resourcesPath: '/x', appRoot: '/src/circa' });
    expect(dev.file).toBe(electronNativeBindingPath('/src/circa'));
    expect(dev.missingHelp).toContain('npm start');
  });
});

describe('dev CSP', () => {
  const html = fs.readFileSync(path.join(appPaths().root, 'src', 'renderer', 'index.html'), 'utf8');
  const csp = (h: string) => /http-equiv="Content-Security-Policy"\s+content="([^"]*)"/.exec(h)![1];

  it("lets Vite's inline dev styles and HMR socket through in dev, and nothing else", () => {
    const strict = csp(html).split('; ');
    const dev = csp(relaxCspMeta(html)).split('; ');
    expect(dev.find((d) => d.startsWith('style-src'))).toBe("style-src 'self' 'unsafe-inline'");
    expect(dev.find((d) => d.startsWith('connect-src'))).toContain('ws://localhost:*');
    expect(dev.filter((d) => !d.startsWith('style-src') && !d.startsWith('connect-src'))).toEqual(
      strict.filter((d) => !d.startsWith('style-src') && !d.startsWith('connect-src')),
    );
    expect(dev.find((d) => d.startsWith('script-src'))).toBe("script-src 'self'");
  });

  it('applies only to the dev server, never to the build', () => {
    expect(devCspPlugin().apply).toBe('serve');
  });
});
