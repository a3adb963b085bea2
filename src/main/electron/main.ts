/**
 * The thin Electron shell: the only main code (with the preload) that imports electron. It
 * opens the same core as browser mode (through a CoreHost, so that a restore can replace it),
 * connects it to one sandboxed window over the contract,
 * serves the renderer and images through circa://, and keeps working in the tray when the window
 * is closed. The decisions live in electron-free modules beside it (startup, shutdown,
 * user-data, native, tray-menu, tray-support, second-instance, import-dialog), each tested
 * under plain Node; this file only wires them to Electron's events.
 */
import fs from 'node:fs';
import path from 'node:path';
import { app, BrowserWindow, clipboard, crashReporter, dialog, ipcMain, powerMonitor, shell } from 'electron';
import { openCore, type Core, type PlatformHooks } from '../core/core';
import { CoreHost } from '../core/core-host';
import { resolveLibraryDir } from '../library/paths';
import { appPaths } from '../app-paths';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL } from '../../shared/bridge';
import { nativeBinding } from './native';
import { utilityWorkerSpawner } from './utility-worker';
import { runStartup, startupErrorMessage } from './startup';
import { userDataDir } from './user-data';
import { Shutdown, SHUTDOWN_TIMING } from './shutdown';
import { trayState, type TrayItemId } from './tray-menu';
import { closeAction, probeStatusNotifierWatcher, trayVisible } from './tray-support';
import { explicitLibraryDir, parseSecondInstanceData, secondInstanceAction, type SecondInstanceData } from './second-instance';
import { desktopPlatform } from './platform';
import { createTray } from './tray';
import { APP_ORIGIN, createMainWindow, hardenSessions, registerCircaScheme, registerProtocol } from './window';
import { installAppMenu } from './menu';
import type { MenuCommand } from './app-menu';
import { aboutDialog } from './about';
import { WindowsSessionEnd } from './session-end';
import { openWithQuestion, pathsToOpen } from './open-with';
import { crashReporterOptions, crashReportsDir } from './crash-reports';
import { fileLogger } from './log-file';

/** `npm run dev`: electron-vite serves the renderer with hot reload and passes its URL. */
const DEV_RENDERER_URL = process.env.ELECTRON_RENDERER_URL;
const RENDERER_ORIGIN = DEV_RENDERER_URL ? new URL(DEV_RENDERER_URL).origin : APP_ORIGIN;

// First of all: the user-data folder holds the default library and the single-instance lock.
app.setPath('userData', userDataDir(app.getPath('appData'), process.env));
// Crash reports stay on this machine, under the logs folder (Help → Open the Logs Folder); never uploaded.
app.setPath('crashDumps', crashReportsDir(app.getPath('logs')));
crashReporter.start(crashReporterOptions(app.getVersion()));
registerCircaScheme();
/** main.log in the logs folder (Help → Open the Logs Folder), and the terminal when there is one. */
const log = fileLogger(app.getPath('logs'), { echo: console });

let host: CoreHost | null = null;
let switching = false;
let win: BrowserWindow | null = null;
let tray: ReturnType<typeof createTray> | null = null;
let hasVisibleTray = process.platform !== 'linux';
let platformHooks: PlatformHooks = {};
let bindingFile = '';
const shutdown = new Shutdown({
  close: (graceMs) => (host ? host.close(graceMs) : Promise.resolve()),
  exit: (code) => app.exit(code),
  log,
});

/** Windows logoff: prepare at the query (no new jobs claimed), quit only at session-end. */
const windowsSessionEnd = new WindowsSessionEnd({
  prepare: () => liveCore()?.runner?.setPaused(true),
  resume: () => {
    const live = liveCore();
    live?.runner?.setPaused(live.settings.getFlag('jobs.paused', false));
  },
  commit: () => shutdown.systemEnding(),
  setTimer: (cb, ms) => setTimeout(cb, ms),
  clearTimer: (t) => clearTimeout(t as ReturnType<typeof setTimeout>),
});

/** The core, unless Circa is quitting, switching libraries or restoring: every handler goes through this. */
const liveCore = (): Core | null => (shutdown.closing || switching ? null : (host?.live ?? null));

// An installed app's argv is [exe, ...args]; `electron [switches] . [args]` names the app folder first.
const launchPaths = pathsToOpen(process.argv, process.cwd(), !app.isPackaged);
/** Paths the OS asked Circa to open before the library was ready (macOS open-file, the launch's own argv). */
let pendingOpen: string[] = [...launchPaths];
const request: SecondInstanceData = { libraryDir: explicitLibraryDir(process.argv, process.env), openPaths: launchPaths };
if (!app.requestSingleInstanceLock(request)) {
  app.quit();
} else {
  app.on('second-instance', (_e, _argv, _cwd, data) => void onSecondInstance(parseSecondInstanceData(data)));
  app.on('activate', () => showWindow()); // macOS: clicking the Dock icon brings the window back
  // macOS "Open with Circa" (Finder, or a folder dropped on the Dock icon); may come before ready.
  app.on('open-file', (event, file) => {
    event.preventDefault();
    pendingOpen.push(file);
    if (host) void offerToImport();
  });
  app.on('window-all-closed', () => {
    /* keep running in the tray */
  });
  app.on('before-quit', (event) => {
    if (shutdown.beforeQuit() === 'prevent') event.preventDefault();
  });
  void runStartup({ whenReady: () => app.whenReady(), start, fatal });
}

function fatal(err: unknown): void {
  log.error(`Circa could not start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  try {
    dialog.showErrorBox('Circa could not start', startupErrorMessage(err));
  } finally {
    app.releaseSingleInstanceLock();
    app.exit(1);
  }
}

async function start(): Promise<void> {
  const paths = appPaths();
  const native = nativeBinding({ isPackaged: app.isPackaged, resourcesPath: process.resourcesPath, appRoot: paths.root });
  if (!fs.existsSync(native.file)) throw new Error(native.missingHelp);
  bindingFile = native.file;
  const libraryDir = resolveLibraryDir({
    argv: process.argv,
    env: process.env,
    defaultDir: path.join(app.getPath('userData'), 'Library'),
  });
  platformHooks = await desktopPlatform(() => win);
  host = openLibrary(libraryDir);
  hardenSessions(RENDERER_ORIGIN);
  registerProtocol(paths.rendererDir, () => liveCore()?.media ?? null);
  registerIpc();
  registerSystemEnd();
  if (process.platform === 'linux') {
    hasVisibleTray = trayVisible({
      platform: process.platform,
      watcher: await probeStatusNotifierWatcher(),
      desktop: process.env.XDG_CURRENT_DESKTOP,
    });
  }
  tray = createTray(paths.root, { onShow: showWindow, onItem: onTrayItem });
  installAppMenu({ platform: process.platform, isPackaged: app.isPackaged }, (command) => void onMenuCommand(command));
  refreshTray();
  showWindow();
  void offerToImport();
}

/** A host for the library in `dir`; it opens the core again (the same way) after a restore. */
function openLibrary(dir: string): CoreHost {
  const opened: CoreHost = new CoreHost(
    (overrides) => {
      const c = openCore({
        libraryDir: dir,
        mode: 'electron',
        spawn: utilityWorkerSpawner(appPaths().builtWorkerEntry),
        nativeBinding: bindingFile,
        log,
        platform: platformHooks,
        // The stored API key is decrypted asynchronously: claim nothing until it is ready…
        runner: { paused: true },
        ...overrides,
      });
      // …then restore the pause state the archivist chose.
      void c.apiKeys.ready.then(() => {
        if (host === opened && opened.live === c && liveCore()) c.runner?.setPaused(c.settings.getFlag('jobs.paused', false));
      });
      return c;
    },
    { log, nativeBinding: bindingFile },
  );
  opened.events.subscribe((event, payload) => {
    if (host !== opened) return;
    if (win && !win.isDestroyed()) win.webContents.send(IPC_EVENT_CHANNEL, event, payload);
    if (event === 'jobs.changed') {
      const p = payload as { counts: Parameters<typeof trayState>[0]; paused: boolean; unseenFailed: number };
      // The tray's "failed" is what needs the archivist: failures not yet dismissed or retried.
      tray?.update(trayState({ ...p.counts, failed: p.unseenFailed }, p.paused));
    }
  });
  opened.open();
  return opened;
}

/** Only our window's main frame, showing our own origin, may call in. */
function trustedSender(frame: Electron.WebFrameMain | null): boolean {
  return !!frame && !!win && frame === win.webContents.mainFrame && frame.url.startsWith(`${RENDERER_ORIGIN}/`);
}

function registerIpc(): void {
  ipcMain.handle(IPC_CALL_CHANNEL, async (event, name: unknown, input: unknown) => {
    if (!trustedSender(event.senderFrame)) return { ok: false, error: { code: 'unknown_call', message: 'Untrusted sender' } };
    if (shutdown.closing || switching || !host) {
      const message = switching ? 'Circa is opening another library' : 'Circa is closing';
      return { ok: false, error: { code: 'unavailable', message } };
    }
    return host.dispatch(name, input); // answers "unavailable" itself while a restore runs
  });
}

/** Logout, restart, shutdown: close fast and never block the OS (see shutdown.ts). */
function registerSystemEnd(): void {
  powerMonitor.on('shutdown', (...args: unknown[]) => {
    // Linux and macOS: preventDefault asks the OS to wait while we close; we then exit at once.
    (args[0] as { preventDefault?: () => void } | undefined)?.preventDefault?.();
    shutdown.systemEnding();
  });
}

function refreshTray(): void {
  const live = liveCore();
  if (tray && live)
    tray.update(trayState({ ...live.jobs.counts(), failed: live.jobs.unseenFailed() }, live.runner?.paused ?? false));
}

function onTrayItem(id: TrayItemId): void {
  if (id === 'show') return showWindow();
  if (id === 'quit') return app.quit();
  const live = liveCore();
  if (!live) return;
  if (id === 'open-library') void shell.openPath(live.paths.dir);
  if (id === 'toggle-pause')
    void live.dispatch('jobs.setPaused', { paused: !(live.runner?.paused ?? false) }).then(() => refreshTray());
}

function createWindow(): BrowserWindow {
  const created = createMainWindow({ appRoot: appPaths().root, url: DEV_RENDERER_URL ?? `${APP_ORIGIN}/index.html` });
  // Closing the window keeps Circa working: hidden in the tray where one is visible, else minimised.
  created.on('close', (e) => {
    const action = closeAction({ quitting: shutdown.closing, platform: process.platform, trayVisible: hasVisibleTray });
    if (action === 'close') return;
    e.preventDefault();
    if (action === 'hide') created.hide();
    else created.minimize();
  });
  // Windows sends no before-quit at logoff or shutdown: these are the only warning. The query
  // only prepares (another app may still cancel the logoff); session-end commits (session-end.ts).
  created.on('query-session-end', () => windowsSessionEnd.querySessionEnd());
  created.on('session-end', () => windowsSessionEnd.sessionEnd());
  created.on('closed', () => {
    if (win === created) win = null;
  });
  return created;
}

function showWindow(): void {
  // Not before start() has opened the library (macOS can send 'activate' that early), nor while quitting.
  if (shutdown.closing || !host) return;
  if (!win) win = createWindow();
  if (win.isMinimized()) win.restore();
  win.show();
  win.focus();
}

/** A second launch: show the window; if it names another library, offer to switch to it. */
async function onSecondInstance(req: SecondInstanceData): Promise<void> {
  const live = liveCore();
  if (!live) return;
  showWindow();
  const action = secondInstanceAction(live.paths.dir, req);
  if (action.kind === 'show') {
    pendingOpen.push(...(req.openPaths ?? []));
    return offerToImport();
  }
  const options = {
    type: 'question' as const,
    title: 'Circa is already open',
    message: `Circa is already open with the library in ${live.paths.dir}.`,
    detail: `Switch to the library in ${action.libraryDir}? Jobs running now stop and carry on when you open this library again.`,
    buttons: ['Switch library', 'Keep the current library'],
    defaultId: 0,
    cancelId: 1,
    noLink: true,
  };
  const r = win ? await dialog.showMessageBox(win, options) : await dialog.showMessageBox(options);
  if (r.response === 0) await switchLibrary(action.libraryDir);
}

async function switchLibrary(dir: string): Promise<void> {
  const old = liveCore();
  if (!old || !host) return;
  const oldDir = old.paths.dir;
  switching = true;
  try {
    await host.close(SHUTDOWN_TIMING.user.graceMs);
    host = null;
    try {
      host = openLibrary(dir);
    } catch (err) {
      dialog.showErrorBox('Circa could not open that library', startupErrorMessage(err));
      host = openLibrary(oldDir);
    }
  } catch (err) {
    return fatal(err);
  } finally {
    switching = false;
  }
  refreshTray();
  win?.webContents.reload();
}

/** "Open with Circa": asks whether to import what the OS handed over, then imports it in place. */
async function offerToImport(): Promise<void> {
  const paths = [...new Set(pendingOpen)];
  pendingOpen = [];
  const live = liveCore();
  if (!paths.length || !live) return;
  showWindow();
  const question = openWithQuestion(paths);
  const options = {
    type: 'question' as const,
    title: 'Import into Circa',
    ...question,
    buttons: ['Import', 'Cancel'],
    defaultId: 0,
    cancelId: 1,
    noLink: true,
  };
  const r = win ? await dialog.showMessageBox(win, options) : await dialog.showMessageBox(options);
  if (r.response !== 0) return;
  let result = await live.dispatch('photos.import', { paths });
  if (!result.ok && result.error.code === 'needs_confirmation' && live.platform.confirm) {
    if (!(await live.platform.confirm(result.error.message, 'Import anyway'))) return;
    result = await live.dispatch('photos.import', { paths, confirmed: true });
  }
  if (!result.ok) dialog.showErrorBox('Circa could not import that', result.error.message);
}

/** The application menu's own commands (app-menu.ts); the rest are Electron roles. */
async function onMenuCommand(command: MenuCommand): Promise<void> {
  const live = liveCore();
  if (command === 'about') return showAbout();
  if (command === 'open-logs') {
    const logs = app.getPath('logs');
    fs.mkdirSync(logs, { recursive: true });
    void shell.openPath(logs);
    return;
  }
  if (!live) return;
  if (command === 'show-library') return void shell.openPath(live.paths.dir);
  showWindow();
  if (command === 'export') {
    // The export dialog (what and how to export) belongs to the window: ask it to open.
    win?.webContents.send(IPC_EVENT_CHANNEL, 'menu.command', { command: 'export' });
    return;
  }
  const result =
    command === 'import'
      ? await live.dispatch('photos.chooseAndImport', {})
      : await live.dispatch('jobs.enqueue', { type: 'backup', payload: {} });
  if (!result.ok)
    dialog.showErrorBox(command === 'import' ? 'Circa could not import' : 'Circa could not start a backup', result.error.message);
}

/** The one About dialog (the macOS app menu, Help elsewhere). */
async function showAbout(): Promise<void> {
  const about = aboutDialog({
    version: app.getVersion(),
    electron: process.versions.electron ?? '',
    chrome: process.versions.chrome ?? '',
    node: process.versions.node,
    platform: process.platform,
    arch: process.arch,
    libraryDir: liveCore()?.paths.dir ?? null,
    logsDir: app.getPath('logs'),
  });
  const options = { type: 'info' as const, ...about, defaultId: 0, cancelId: 0, noLink: true };
  const r = win ? await dialog.showMessageBox(win, options) : await dialog.showMessageBox(options);
  if (r.response === 1) clipboard.writeText(`${about.message}\n${about.detail}`);
}
