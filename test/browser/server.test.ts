import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startBrowserServer, type BrowserServer } from '../../src/main/browser/server';
import type { Core } from '../../src/main/core/core';
import { openTestCore, tempDir } from '../support/core';

let core: Core;
let server: BrowserServer;
let origin: string;

beforeAll(async () => {
  core = openTestCore({ runJobs: false });
  const rendererDir = tempDir('circa-renderer-');
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>Circa</title>');
  fs.mkdirSync(path.join(rendererDir, 'assets'));
  fs.writeFileSync(path.join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  fs.writeFileSync(path.join(tempDir(), 'secret.txt'), 'secret');
  server = await startBrowserServer({ core, rendererDir });
  origin = `http://127.0.0.1:${server.port}`;
});
afterAll(async () => {
  await server.close();
  await core.close();
});

function connect(token: string, hdrOrigin = origin): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=${token}`, { headers: { origin: hdrOrigin } });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

function request(ws: WebSocket, msg: unknown): Promise<any> {
  return new Promise((resolve) => {
    ws.on('message', function on(data) {
      const m = JSON.parse(data.toString());
      if (m.kind === 'result') {
        ws.off('message', on);
        resolve(m);
      }
    });
    ws.send(typeof msg === 'string' ? msg : JSON.stringify(msg));
  });
}

describe('browser mode server', () => {
  it('binds to loopback and serves the app shell with a strict CSP', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{20,}$/);
    const res = await fetch(`${origin}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('content-security-policy')).toContain("object-src 'none'");
    expect((await fetch(`${origin}/assets/app.js`)).headers.get('content-type')).toContain('javascript');
  });

  it('never serves files outside the renderer folder', async () => {
    for (const p of [
      '/../secret.txt',
      '/..%2f..%2fetc%2fpasswd',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/assets/..%5c..%5csecret.txt',
      '/%00',
    ]) {
      const res = await fetch(`${origin}${p}`);
      expect([400, 404]).toContain(res.status);
      expect(await res.text()).not.toContain('root:');
    }
  });

  it('refuses sockets without the token or from another origin', async () => {
    await expect(connect('wrong')).rejects.toThrow(/401/);
    await expect(connect(server.token, 'http://evil.example')).rejects.toThrow(/401/);
  });

  it('carries the contract over the socket, malformed requests included', async () => {
    const ws = await connect(server.token);
    const ok = await request(ws, { id: 1, call: 'jobs.counts', input: {} });
    expect(ok).toMatchObject({ id: 1, result: { ok: true, value: { counts: { queued: 0 } } } });
    const bad = await request(ws, { id: 2, call: 'jobs.get', input: { id: 'x' } });
    expect(bad).toMatchObject({ id: 2, result: { ok: false, error: { code: 'invalid_input' } } });
    const garbage = await request(ws, '{not json');
    expect(garbage).toMatchObject({ result: { ok: false, error: { code: 'invalid_input' } } });
    ws.close();
  });

  it('pushes events to connected sockets', async () => {
    const ws = await connect(server.token);
    const got = new Promise<any>((resolve) =>
      ws.on('message', (d) => {
        const m = JSON.parse(d.toString());
        if (m.kind === 'event') resolve(m);
      }),
    );
    await core.dispatch('jobs.setPaused', { paused: true });
    expect(await got).toMatchObject({ kind: 'event', event: 'jobs.changed', payload: { paused: true } });
    ws.close();
  });

  it('guards media behind the token', async () => {
    expect((await fetch(`${origin}/media/thumb/1`)).status).toBe(401);
  });
});

/**
 * Shutting down (browser mode's SIGTERM, a restart) waits for nothing a client holds open: a
 * request whose headers never finish, or a response the client stopped reading. Node's close()
 * ends idle connections only, so either of these kept the server (and the process) up until
 * Node's 60 s header timeout, or for ever for a stalled response.
 */
describe('browser mode server: closing', () => {
  it('ends connections a client holds open mid-request or mid-response', async () => {
    const own = openTestCore({ runJobs: false });
    const rendererDir = tempDir('circa-renderer-');
    fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>Circa</title>');
    // Large enough that the response cannot all sit in the socket's buffers while the client reads nothing.
    fs.writeFileSync(path.join(rendererDir, 'big.js'), 'x'.repeat(32 * 1024 * 1024));
    const s = await startBrowserServer({ core: own, rendererDir });
    const closed = (socket: net.Socket) => new Promise<void>((resolve) => socket.once('close', () => resolve()));
    const open = (bytes: string) =>
      new Promise<net.Socket>((resolve, reject) => {
        const socket = net.connect(s.port, '127.0.0.1', () => {
          socket.write(bytes);
          resolve(socket);
        });
        socket.on('error', reject);
      });
    const halfSent = await open('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const stalled = await open('GET /big.js HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    stalled.pause();
    // The stalled response has started: its first bytes arrived before the client stopped reading.
    await new Promise((resolve) => stalled.once('readable', resolve));
    const ended = Promise.all([closed(halfSent), closed(stalled)]);
    await s.close();
    // Only once the server is closed does the client read again: what was sent, then the end.
    stalled.resume();
    await ended;
    expect(halfSent.destroyed && stalled.destroyed).toBe(true);
    await own.close();
  });
});
