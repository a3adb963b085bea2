/**
 * Drives a browser-mode server running in its own process (browser-server-child.ts) from
 * outside: raw TCP for requests and frames no well-behaved client would send, the process's own
 * memory, and whether it is still alive and answering.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import WebSocket from 'ws';
import { appPaths } from '../../src/main/app-paths';
import type { ConnectionLimits } from '../../src/main/browser/connection-guard';
import { tempDir } from './core';

const CHILD = path.join(appPaths().root, 'test', 'support', 'browser-server-child.ts');

export interface ServerProcess {
  proc: ChildProcess;
  pid: number;
  port: number;
  token: string;
  origin: string;
  /** Set once the process has exited (a crash, for these tests). */
  exit: { code: number | null; signal: string | null } | null;
  output(): string;
  /** Resident memory of the server process, from /proc (bytes). */
  rss(): number;
  stop(): Promise<void>;
}

/** `hosted`: behind a CoreHost and running jobs, as `npm run serve` (see browser-server-child.ts). */
export async function startServerProcess(
  libraryDir = tempDir(),
  opts: { hosted?: boolean; limits?: Partial<ConnectionLimits> } = {},
): Promise<ServerProcess> {
  const rendererDir = tempDir('circa-renderer-');
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>Circa</title>');
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', CHILD, libraryDir, rendererDir, ...(opts.hosted ? ['--hosted'] : [])],
    {
      cwd: appPaths().root,
      env: { ...process.env, CIRCA_TEST_LIMITS: JSON.stringify(opts.limits ?? {}) },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  proc.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const server = { proc, exit: null, output: () => out } as unknown as ServerProcess;
  proc.on('exit', (code, signal) => (server.exit = { code, signal }));
  const info = await new Promise<{ port: number; token: string; pid: number }>((resolve, reject) => {
    let line = '';
    proc.stdout!.on('data', (c: Buffer) => {
      line += c.toString();
      if (line.includes('\n')) resolve(JSON.parse(line.slice(0, line.indexOf('\n'))));
    });
    proc.on('exit', () => reject(new Error(`server process exited before listening:\n${out}`)));
  });
  Object.assign(server, info, {
    origin: `http://127.0.0.1:${info.port}`,
    rss: () => {
      const status = fs.readFileSync(`/proc/${info.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
    },
    stop: async () => {
      if (server.exit) return;
      const gone = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await gone;
    },
  });
  return server;
}

/** Opens an authorised socket (right token and origin). */
export function connect(server: ServerProcess): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=${server.token}`, {
      headers: { origin: server.origin },
    });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

/** One contract call over a fresh socket: proves the server is alive and answering. */
export async function healthCheck(server: ServerProcess): Promise<unknown> {
  const ws = await connect(server);
  try {
    return await call(ws, 1, 'jobs.counts', {});
  } finally {
    ws.close();
  }
}

export function call(ws: WebSocket, id: number, name: string, input: unknown): Promise<any> {
  return new Promise((resolve, reject) => {
    const onMessage = (data: WebSocket.RawData) => {
      const m = JSON.parse(data.toString());
      if (m.kind === 'result' && m.id === id) {
        ws.off('message', onMessage);
        ws.off('close', onClose);
        resolve(m.result);
      }
    };
    const onClose = (code: number, reason: Buffer) => reject(new Error(`socket closed ${code} ${reason.toString()}`));
    ws.on('message', onMessage);
    ws.once('close', onClose);
    ws.send(JSON.stringify({ id, call: name, input }));
  });
}

/** Sends raw bytes and collects everything the server answers until it closes (or `ms` pass). */
export function rawExchange(port: number, bytes: Buffer | string, ms = 3000): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const sock = net.connect(port, '127.0.0.1', () => sock.write(bytes));
    const done = () => {
      clearTimeout(timer);
      sock.destroy();
      resolve(Buffer.concat(chunks));
    };
    const timer = setTimeout(done, ms);
    sock.on('data', (c) => chunks.push(c));
    sock.on('close', done);
    sock.on('error', done);
  });
}

/** The opening handshake a browser sends, for the authorised /ws endpoint. */
export function upgradeRequest(server: ServerProcess, target = `/ws?token=${server.token}`): string {
  return (
    `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nOrigin: ${server.origin}\r\n` +
    `Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n` +
    `Sec-WebSocket-Key: ${crypto.randomBytes(16).toString('base64')}\r\n\r\n`
  );
}

/** A client frame (masked, as RFC 6455 requires of clients). `length` may lie about the payload. */
export function frame(opts: { opcode: number; payload?: Buffer; rsv1?: boolean; fin?: boolean; length?: number }): Buffer {
  const payload = opts.payload ?? Buffer.alloc(0);
  const length = opts.length ?? payload.length;
  const head: number[] = [((opts.fin ?? true) ? 0x80 : 0) | (opts.rsv1 ? 0x40 : 0) | opts.opcode];
  if (length < 126) head.push(0x80 | length);
  else if (length < 0x10000) head.push(0x80 | 126, length >> 8, length & 0xff);
  else {
    head.push(0x80 | 127);
    const big = Buffer.alloc(8);
    big.writeBigUInt64BE(BigInt(length));
    head.push(...big);
  }
  const mask = crypto.randomBytes(4);
  const masked = Buffer.from(payload.map((b, i) => b ^ mask[i % 4]));
  return Buffer.concat([Buffer.from(head), mask, masked]);
}

/** The status code of the first close frame in what the server sent after its 101 answer, or null. */
export function closeCode(answer: Buffer): number | null {
  const start = answer.indexOf('\r\n\r\n');
  if (start < 0 || !answer.subarray(0, 12).toString().includes('101')) return null;
  let i = start + 4;
  while (i + 2 <= answer.length) {
    const opcode = answer[i] & 0x0f;
    let len = answer[i + 1] & 0x7f;
    let off = i + 2;
    if (len === 126) {
      len = answer.readUInt16BE(off);
      off += 2;
    } else if (len === 127) {
      len = Number(answer.readBigUInt64BE(off));
      off += 8;
    }
    if (opcode === 0x8) return len >= 2 ? answer.readUInt16BE(off) : 1005;
    i = off + len;
  }
  return null;
}
