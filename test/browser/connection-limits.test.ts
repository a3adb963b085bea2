/**
 * Browser mode's connection caps and timeouts (src/main/browser/connection-guard.ts), against a
 * real server and real sockets, with the times shortened to milliseconds. Nothing here measures
 * time: each test waits for the server to act (a close, a refusal, a number of pings).
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startBrowserServer, type BrowserServer } from '../../src/main/browser/server';
import { CONNECTION_LIMITS, type ConnectionLimits } from '../../src/main/browser/connection-guard';
import type { Core } from '../../src/main/core/core';
import { MAX_WIRE_REQUEST_BYTES } from '../../src/shared/wire-limits';
import { call, frame, upgradeRequest, type ServerProcess } from '../support/browser-child';
import { openTestCore, tempDir, waitFor } from '../support/core';

let core: Core | undefined;
let server: BrowserServer | undefined;
const opened: net.Socket[] = [];
const warnings: string[] = [];

afterEach(async () => {
  for (const s of opened.splice(0)) s.destroy();
  await server?.close();
  await core?.close();
  server = core = undefined;
  warnings.length = 0;
});

async function start(limits: Partial<ConnectionLimits>): Promise<ServerProcess> {
  core = openTestCore({ runJobs: false });
  const rendererDir = tempDir('circa-renderer-');
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>Circa</title>');
  const log = { info() {}, warn: (m: string) => warnings.push(m), error: (m: string) => warnings.push(m) };
  server = await startBrowserServer({ core, rendererDir, log, limits: { ...CONNECTION_LIMITS, ...limits } });
  // The shape the raw-socket helpers take.
  return { port: server.port, token: server.token, origin: `http://127.0.0.1:${server.port}` } as ServerProcess;
}

/** A raw TCP connection, and a promise of its close (by the server: the client never closes it). */
async function rawSocket(port: number): Promise<{ sock: net.Socket; closed: Promise<Buffer> }> {
  const sock = net.connect(port, '127.0.0.1');
  opened.push(sock);
  const chunks: Buffer[] = [];
  sock.on('data', (c) => chunks.push(c));
  sock.on('error', () => {});
  const closed = new Promise<Buffer>((r) => sock.once('close', () => r(Buffer.concat(chunks))));
  await new Promise((r) => sock.once('connect', r));
  return { sock, closed };
}

function connect(s: ServerProcess): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${s.port}/ws?token=${s.token}`, { headers: { origin: s.origin } });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

/** Opens an authorised socket over raw TCP and waits for the server's 101. */
async function rawUpgrade(s: ServerProcess): Promise<{ sock: net.Socket; closed: Promise<Buffer> }> {
  const raw = await rawSocket(s.port);
  const switched = new Promise((r) => raw.sock.once('data', r));
  raw.sock.write(upgradeRequest(s));
  expect(String(await switched)).toMatch(/^HTTP\/1\.1 101 /);
  return raw;
}

describe('before the upgrade', () => {
  it('a connection that sends nothing is closed (20,000 of them used up the descriptors)', async () => {
    const s = await start({ requestIdleMs: 200 });
    const { closed } = await rawSocket(s.port);
    // Closed, at most with Node's 408 answer to a request that never came.
    expect(String(await closed)).toMatch(/^$|^HTTP\/1\.1 408 /);
  });

  it('a request trickled without end is closed', async () => {
    const s = await start({ requestIdleMs: 300 });
    const { sock, closed } = await rawSocket(s.port);
    sock.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const trickle = setInterval(() => sock.write('X-Slow: 1\r\n'), 50);
    await closed;
    clearInterval(trickle);
  });

  it('connections past the cap are closed as they arrive; the ones held are still served', async () => {
    const s = await start({ maxConnections: 6 });
    const held = await Promise.all(Array.from({ length: 6 }, () => rawSocket(s.port)));
    // An answer on each (kept alive) shows the server has accepted, and counts, all six.
    for (const { sock } of held) {
      const answered = new Promise((r) => sock.once('data', r));
      sock.write('HEAD / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      await answered;
    }
    const extra = await rawSocket(s.port);
    extra.sock.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    expect((await extra.closed).length).toBe(0);
    held[0].sock.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    expect(String(await held[0].closed)).toMatch(/HTTP\/1\.1 200 /);
  });
});

describe('after the upgrade', () => {
  it('a socket that answers no ping is closed', async () => {
    const s = await start({ heartbeatMs: 100 });
    const { closed } = await rawUpgrade(s);
    await closed;
    expect(warnings.join('\n')).toMatch(/sent nothing for 100 ms, not even a pong/);
  });

  it('an idle client that answers pings keeps its socket and is served', async () => {
    const s = await start({ heartbeatMs: 50, frameStallMs: 50 });
    const ws = await connect(s);
    expect(await call(ws, 1, 'jobs.counts', {})).toMatchObject({ ok: true });
    let pings = 0;
    ws.on('ping', () => pings++);
    await waitFor(() => pings >= 6, 10_000, 'six pings');
    expect(ws.readyState).toBe(WebSocket.OPEN);
    expect(await call(ws, 2, 'jobs.counts', {})).toMatchObject({ ok: true });
    ws.close();
  });

  it('sockets on the token are capped: one more is refused with 503 until one closes', async () => {
    const s = await start({ maxSockets: 2 });
    const [a, b] = await Promise.all([connect(s), connect(s)]);
    const refused = await rawSocket(s.port);
    refused.sock.write(upgradeRequest(s));
    expect(String(await refused.closed)).toMatch(/^HTTP\/1\.1 503 /);
    expect(warnings.join('\n')).toMatch(/2 are open already/);
    const gone = new Promise((r) => a.once('close', r));
    a.close();
    await gone;
    // The server counts the socket out when its side closes, a moment after the client's.
    let c: WebSocket | undefined;
    for (let i = 0; !c && i < 100; i++) c = await connect(s).catch(() => new Promise<undefined>((r) => setTimeout(r, 20)));
    if (!c) throw new Error('no socket was accepted after one closed');
    expect(await call(c, 1, 'jobs.counts', {})).toMatchObject({ ok: true });
    b.close();
    c.close();
  });

  it('a 4 MiB frame announced and never finished is closed with its socket (256 of them pinned 1.1 GB)', async () => {
    const s = await start({ frameStallMs: 200, heartbeatMs: 60_000 });
    const raws = await Promise.all([rawUpgrade(s), rawUpgrade(s), rawUpgrade(s)]);
    for (const { sock } of raws) {
      const whole = frame({ opcode: 0x1, payload: Buffer.alloc(MAX_WIRE_REQUEST_BYTES - 16, 0x20) });
      sock.write(whole.subarray(0, whole.length - 1024 * 1024));
    }
    await Promise.all(raws.map((r) => r.closed));
    expect(warnings.filter((w) => /message was not finished within 200 ms/.test(w))).toHaveLength(3);
    const ws = await connect(s);
    expect(await call(ws, 1, 'jobs.counts', {})).toMatchObject({ ok: true });
    ws.close();
  });
});
