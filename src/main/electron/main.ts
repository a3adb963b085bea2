/**
 * The thin Electron shell: the only module (with the preload and utility-worker) that imports
 * electron. It opens the same core as browser mode, connects it to one sandboxed window over
 * the contract, serves the renderer and images through the circa:// protocol, and keeps
 * working in the tray when the window is closed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, Menu, nativeImage, protocol, safeStorage, session, shell, Tray } from 'electron';
import { openCore, type Core } from '../core/core';
import { resolveLibraryDir } from '../library/paths';
import { appPaths } from '../app-paths';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL } from '../../shared/bridge';
import { contentSecurityPolicy } from '../browser/server';
import { contentType, resolveStatic } from '../browser/static-files';
import { electronNativeBindingPath } from './native';
import { utilityWorkerSpawner } from './utility-worker';
import { serveMedia } from '../media/media';

const APP_ORIGIN = 'circa://app';
/** `npm run dev`: electron-vite serves the renderer with hot reload and passes its URL. */
const DEV_RENDERER_URL = process.env.ELECTRON_RENDERER_URL;
const RENDERER_ORIGIN = DEV_RENDERER_URL ? new URL(DEV_RENDERER_URL).origin : APP_ORIGIN;
let core: Core | null = null;
let win: BrowserWindow | null = null;
let tray: Tray | null = null;
let quitting = false;

protocol.registerSchemesAsPrivileged([
  { scheme: 'circa', privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true } },
]);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => showWindow());
  app.whenReady().then(start, (err) => fatal(err));
}

function fatal(err: unknown): void {
  dialog.showErrorBox('Circa could not start', err instanceof Error ? err.message : String(err));
  app.exit(1);
}

function start(): void {
  const paths = appPaths();
  const binding = electronNativeBindingPath(paths.root);
  if (!fs.existsSync(binding)) {
    return fatal(
      new Error(`Circa's database module for Electron is missing (${binding}). Start Circa with "npm start", which builds it.`),
    );
  }
  const libraryDir = resolveLibraryDir({
    argv: process.argv,
    env: process.env,
    defaultDir: path.join(app.getPath('userData'), 'Library'),
  });
  try {
    core = openCore({
      libraryDir,
      mode: 'electron',
      spawn: utilityWorkerSpawner(paths.builtWorkerEntry),
      nativeBinding: binding,
      log: console,
      platform: {
        async chooseImportPaths() {
          const r = await dialog.showOpenDialog(win!, {
            title: 'Import photos',
            buttonLabel: 'Import',
            properties: ['openFile', 'openDirectory', 'multiSelections'],
          });
          return r.canceled ? null : r.filePaths;
        },
        revealInFolder: (file) => shell.showItemInFolder(file),
        async confirm(message, yes) {
          const r = await dialog.showMessageBox(win!, {
            type: 'warning',
            message,
            buttons: [yes, 'Cancel'],
            defaultId: 1,
            cancelId: 1,
          });
          return r.response === 0;
        },
        cipher: safeStorage.isEncryptionAvailable()
          ? { encrypt: (plain) => safeStorage.encryptString(plain), decrypt: (buf) => safeStorage.decryptString(buf) }
          : undefined,
      },
    });
  } catch (err) {
    return fatal(err);
  }
  hardenSessions();
  registerProtocol(paths.rendererDir);
  registerIpc();
  createTray();
  createWindow();
}

function hardenSessions(): void {
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  app.on('web-contents-created', (_e, contents) => {
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
    contents.on('will-navigate', (event, url) => {
      if (!url.startsWith(`${RENDERER_ORIGIN}/`)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
}

function registerProtocol(rendererDir: string): void {
  const root = fs.realpathSync(rendererDir);
  protocol.handle('circa', async (request) => {
    const url = new URL(request.url);
    if (url.host !== 'app') return new Response('Not found', { status: 404 });
    if (url.pathname.startsWith('/media/')) return serveMedia(core!.media, url);
    const file = resolveStatic(root, url.pathname);
    if (!file) return new Response('Not found', { status: 404 });
    return new Response(fs.readFileSync(file), {
      headers: { 'content-type': contentType(file), 'content-security-policy': contentSecurityPolicy() },
    });
  });
}

/** Only our window's main frame, showing our own origin, may call in. */
function trustedSender(frame: Electron.WebFrameMain | null): boolean {
  return !!frame && !!win && frame === win.webContents.mainFrame && frame.url.startsWith(`${RENDERER_ORIGIN}/`);
}

function registerIpc(): void {
  ipcMain.handle(IPC_CALL_CHANNEL, async (event, name: unknown, input: unknown) => {
    if (!trustedSender(event.senderFrame)) return { ok: false, error: { code: 'unknown_call', message: 'Untrusted sender' } };
    return core!.dispatch(name, input);
  });
  core!.events.subscribe((event, payload) => {
    if (win && !win.isDestroyed()) win.webContents.send(IPC_EVENT_CHANNEL, event, payload);
    if (event === 'jobs.changed') updateTray();
  });
}

function createWindow(): void {
  win = new BrowserWindow({
    width: 1360,
    height: 880,
    minWidth: 960,
    minHeight: 600,
    title: 'Circa',
    icon: path.join(appPaths().root, 'resources', 'icon.png'),
    backgroundColor: '#f7f4ee',
    show: false,
    webPreferences: {
      preload: path.join(appPaths().root, 'out', 'preload', 'index.cjs'),
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  });
  win.once('ready-to-show', () => win?.show());
  // Closing the window keeps Circa working in the tray; Quit (tray or menu) really quits.
  win.on('close', (e) => {
    if (!quitting) {
      e.preventDefault();
      win?.hide();
    }
  });
  void win.loadURL(DEV_RENDERER_URL ?? `${APP_ORIGIN}/index.html`);
}

function showWindow(): void {
  if (!win) return createWindow();
  if (win.isMinimized()) win.restore();
  win.show();
  win.focus();
}

function createTray(): void {
  tray = new Tray(nativeImage.createFromPath(path.join(appPaths().root, 'resources', 'tray.png')));
  tray.on('click', showWindow);
  updateTray();
}

function updateTray(): void {
  if (!tray || !core) return;
  const c = core.jobs.counts();
  const paused = core.runner?.paused ?? false;
  tray.setToolTip(`Circa — ${c.running} running, ${c.queued} queued, ${c.failed} failed${paused ? ' (paused)' : ''}`);
  tray.setContextMenu(
    Menu.buildFromTemplate([
      { label: 'Show Circa', click: showWindow },
      { type: 'separator' },
      {
        label: paused ? 'Resume processing' : 'Pause processing',
        click: () => void core?.dispatch('jobs.setPaused', { paused: !paused }).then(updateTray),
      },
      { label: 'Open library folder', click: () => void shell.openPath(core!.paths.dir) },
      { type: 'separator' },
      { label: 'Quit Circa', click: () => app.quit() },
    ]),
  );
}

app.on('window-all-closed', () => {
  /* keep running in the tray */
});

app.on('before-quit', (event) => {
  if (!core) return;
  quitting = true;
  event.preventDefault();
  const closing = core;
  core = null;
  // Running jobs get a few seconds, then their leases are released and the database closed cleanly.
  void closing.close(3000).finally(() => app.exit(0));
});
