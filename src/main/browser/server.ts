/**
 * Browser mode: the same core and contract, over a loopback WebSocket, with the built renderer
 * served to a browser. Every data request (socket or media) needs the per-run token; the
 * socket also checks the Origin so another local page cannot drive the app.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { CoreEndpoint } from '../core/core-host';
import type { WireMessage } from '../../shared/contract';
import { MAX_WIRE_REQUEST_BYTES } from '../../shared/wire-limits';
import { silentLogger, type Logger } from '../logger';
import { contentType, resolveStatic } from './static-files';
import { mediaRoute } from './media-route';
import { serveSocket, type SocketSession } from './socket-session';
import { CONNECTION_LIMITS, guardSocket, httpServerOptions, limitConnections, type ConnectionLimits } from './connection-guard';

export interface BrowserServer {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

export interface BrowserServerOptions {
  /** The CoreHost (a restore replaces the core behind it), or a bare core in tests. */
  core: CoreEndpoint;
  rendererDir: string;
  port?: number;
  token?: string;
  log?: Logger;
  /** Connection caps and timeouts; tests shorten them. */
  limits?: ConnectionLimits;
}

const HOST = '127.0.0.1';

export function contentSecurityPolicy(): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The URL of a request target, or null when it cannot be one of ours. Only origin-form targets
 * ("/path?query") are accepted, and they are appended to our own origin, so "//host/…" stays a
 * path and a target the URL parser rejects is a 400, never an exception.
 */
export function parseRequestTarget(target: string | undefined): URL | null {
  if (!target?.startsWith('/')) return null;
  try {
    return new URL(`http://${HOST}${target}`);
  } catch {
    return null;
  }
}

function refuseUpgrade(socket: Duplex, status: '400 Bad Request' | '401 Unauthorized' | '503 Service Unavailable'): void {
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`, () => socket.destroy());
}

function tokensEqual(a: string | null, b: string): boolean {
  if (!a) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

export async function startBrowserServer(opts: BrowserServerOptions): Promise<BrowserServer> {
  const token = opts.token ?? crypto.randomBytes(24).toString('base64url');
  const rendererDir = fs.realpathSync(opts.rendererDir);
  let origin = '';
  const media = mediaRoute(opts.core.media);
  const log = opts.log ?? silentLogger;
  const limits = opts.limits ?? CONNECTION_LIMITS;

  const server = http.createServer(httpServerOptions(limits), async (req, res) => {
    try {
      const url = parseRequestTarget(req.url);
      if (!url) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end('Bad request');
        return;
      }
      const authorized = tokensEqual(
        url.searchParams.get('token') ?? (req.headers['x-circa-token'] as string | undefined) ?? null,
        token,
      );
      if (await media(req, res, url, authorized)) return;
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405).end();
        return;
      }
      // The app shell itself is not secret; the data behind it needs the token.
      const file = resolveStatic(rendererDir, url.pathname);
      if (!file) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
        return;
      }
      res.writeHead(200, {
        'content-type': contentType(file),
        'content-security-policy': contentSecurityPolicy(),
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'cache-control': file.endsWith('.html') ? 'no-cache' : 'public, max-age=31536000, immutable',
      });
      if (req.method === 'HEAD') res.end();
      else
        fs.createReadStream(file)
          .on('error', () => res.destroy())
          .pipe(res);
    } catch (err) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`Internal error: ${(err as Error).message}`);
    }
  });
  limitConnections(server, limits);

  // The frame limit agrees with the contract: its largest valid message of every call fits.
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_WIRE_REQUEST_BYTES, perMessageDeflate: false });
  const sessions = new Map<object, SocketSession>();
  server.on('upgrade', (req, socket, head) => {
    socket.on('error', () => socket.destroy());
    const url = parseRequestTarget(req.url);
    if (!url) return refuseUpgrade(socket, '400 Bad Request');
    const okOrigin = req.headers.origin === origin;
    if (url.pathname !== '/ws' || !okOrigin || !tokensEqual(url.searchParams.get('token'), token))
      return refuseUpgrade(socket, '401 Unauthorized');
    if (sessions.size >= limits.maxSockets) {
      log.warn(`browser-mode socket refused: ${limits.maxSockets} are open already (close a tab of this library)`);
      return refuseUpgrade(socket, '503 Service Unavailable');
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      guardSocket(ws, socket, limits, log);
      sessions.set(ws, serveSocket(ws, opts.core.dispatch, log));
      ws.on('close', () => sessions.delete(ws));
    });
  });

  const unsubscribe = opts.core.events.subscribe((event, payload) => {
    const msg = JSON.stringify({ kind: 'event', event, payload } satisfies WireMessage);
    for (const session of sessions.values()) session.sendEvent(msg);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, HOST, () => resolve());
  });
  server.on('error', (err) => log.error(`browser-mode server: ${err.message}`));
  const port = (server.address() as AddressInfo).port;
  origin = `http://${HOST}:${port}`;
  return {
    url: `${origin}/?token=${token}`,
    port,
    token,
    async close() {
      unsubscribe();
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // close() ends idle connections only: a half-sent request or a response the client stopped
      // reading would hold the shutdown (and a restart) until a timeout, or for ever.
      server.closeAllConnections();
      await closed;
    },
  };
}
