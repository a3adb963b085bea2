/**
 * The one sandboxed window, the circa:// protocol that serves it and its images, and the
 * session hardening (no permissions, no navigation away, no new windows or webviews).
 */
import fs from 'node:fs';
import { app, BrowserWindow, protocol, session } from 'electron';
import { contentSecurityPolicy } from '../browser/server';
import { contentType, resolveStatic } from '../browser/static-files';
import { serveMedia, type MediaDeps } from '../media/media';
import { mainWindowOptions } from './window-options';

export const APP_ORIGIN = 'circa://app';

/** Must run before the app is ready. */
export function registerCircaScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: 'circa', privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true } },
  ]);
}

export function hardenSessions(rendererOrigin: string): void {
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  app.on('web-contents-created', (_e, contents) => {
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
    contents.on('will-navigate', (event, url) => {
      if (!url.startsWith(`${rendererOrigin}/`)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
}

/** `media()` is null while the library is closing or being switched: images then answer 503. */
export function registerProtocol(rendererDir: string, media: () => MediaDeps | null): void {
  const root = fs.realpathSync(rendererDir);
  protocol.handle('circa', async (request) => {
    const url = new URL(request.url);
    if (url.host !== 'app') return new Response('Not found', { status: 404 });
    if (url.pathname.startsWith('/media/')) {
      const deps = media();
      if (!deps) return new Response('Circa is closing', { status: 503 });
      return serveMedia(deps, url, request.headers.get('if-none-match'));
    }
    const file = resolveStatic(root, url.pathname);
    if (!file) return new Response('Not found', { status: 404 });
    // The renderer's own small files (the bundle); images are streamed above.
    return new Response(fs.readFileSync(file), {
      headers: { 'content-type': contentType(file), 'content-security-policy': contentSecurityPolicy() },
    });
  });
}

export function createMainWindow(opts: { appRoot: string; url: string }): BrowserWindow {
  const win = new BrowserWindow(mainWindowOptions({ appRoot: opts.appRoot, isPackaged: app.isPackaged }));
  win.once('ready-to-show', () => win.show());
  void win.loadURL(opts.url);
  return win;
}
