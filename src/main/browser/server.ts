/**
 * Browser mode: the same core and contract, over a loopback WebSocket, with the built renderer
 * served to a browser. Every data request (socket or media) needs the per-run token; the
 * socket also checks the Origin so another local page cannot drive the app.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { CoreEndpoint } from '../core/core-host';
import { wireRequestSchema, type WireMessage } from '../../shared/contract';
import { contentType, resolveStatic } from './static-files';
import { mediaRoute } from './media-route';

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

  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', origin || `http://${HOST}`);
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
      else fs.createReadStream(file).pipe(res);
    } catch (err) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`Internal error: ${(err as Error).message}`);
    }
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', origin);
    const okOrigin = req.headers.origin === origin;
    if (url.pathname !== '/ws' || !okOrigin || !tokensEqual(url.searchParams.get('token'), token)) {
      socket.write('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n');
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  const sockets = new Set<WebSocket>();
  wss.on('connection', (ws) => {
    sockets.add(ws);
    ws.on('close', () => sockets.delete(ws));
    ws.on('message', async (data) => {
      let request;
      try {
        request = wireRequestSchema.parse(JSON.parse(data.toString()));
      } catch {
        ws.send(
          JSON.stringify({
            kind: 'result',
            id: -1,
            result: { ok: false, error: { code: 'invalid_input', message: 'Malformed request' } },
          }),
        );
        return;
      }
      const result = await opts.core.dispatch(request.call, request.input);
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ kind: 'result', id: request.id, result } satisfies WireMessage));
    });
  });
  const unsubscribe = opts.core.events.subscribe((event, payload) => {
    const msg = JSON.stringify({ kind: 'event', event, payload } satisfies WireMessage);
    for (const ws of sockets) if (ws.readyState === ws.OPEN) ws.send(msg);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, HOST, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  origin = `http://${HOST}:${port}`;
  return {
    url: `${origin}/?token=${token}`,
    port,
    token,
    async close() {
      unsubscribe();
      for (const ws of sockets) ws.terminate();
      wss.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections?.();
    },
  };
}
