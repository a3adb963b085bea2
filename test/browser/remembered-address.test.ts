/** Browser mode's kept address: the same port and token after a restart, and what happens when it cannot be. */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startBrowserServer, type BrowserServer } from '../../src/main/browser/server';
import { listenAtRememberedAddress } from '../../src/main/browser/remembered-address';
import type { Core } from '../../src/main/core/core';
import { openTestCore, tempDir } from '../support/core';

const open: { core: Core; servers: BrowserServer[] }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) {
    for (const s of o.servers) await s.close();
    await o.core.close();
  }
});

function rig() {
  const core = openTestCore({ runJobs: false });
  const rendererDir = tempDir('circa-renderer-');
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>Circa</title>');
  const warnings: string[] = [];
  const entry = { core, servers: [] as BrowserServer[] };
  open.push(entry);
  const listen = async (opts: { port?: number; newToken?: boolean } = {}) => {
    const server = await listenAtRememberedAddress({
      file: core.paths.browserAddressFile,
      ...opts,
      start: (port, token) => startBrowserServer({ core, rendererDir, port, token }),
      log: { info: () => {}, warn: (m) => warnings.push(m), error: (m) => warnings.push(m) },
    });
    entry.servers.push(server);
    return server;
  };
  const stop = async (s: BrowserServer) => {
    await s.close();
    entry.servers.splice(entry.servers.indexOf(s), 1);
  };
  return { core, listen, stop, warnings };
}

describe('browser mode keeps its address per library', () => {
  it('a restart comes back on the same port with the same token; the file is owner-only', async () => {
    const r = rig();
    const first = await r.listen();
    await r.stop(first);
    const second = await r.listen();
    expect({ port: second.port, token: second.token }).toEqual({ port: first.port, token: first.token });
    expect(fs.statSync(r.core.paths.browserAddressFile).mode & 0o777).toBe(0o600);
    expect(r.warnings).toEqual([]);
  });

  it('--new-token makes a new token; --port moves the port and keeps the token', async () => {
    const r = rig();
    const first = await r.listen();
    await r.stop(first);
    const renewed = await r.listen({ newToken: true });
    expect(renewed.token).not.toBe(first.token);
    await r.stop(renewed);
    const moved = await r.listen({ port: 0 });
    expect(moved.token).toBe(renewed.token);
  });

  it('a kept port another program took is given up for a free one, with a warning; a chosen one is an error', async () => {
    const r = rig();
    const first = await r.listen();
    await r.stop(first);
    const squatter = net.createServer();
    await new Promise<void>((resolve) => squatter.listen(first.port, '127.0.0.1', resolve));
    try {
      const second = await r.listen();
      expect(second.port).not.toBe(first.port);
      expect(second.token).toBe(first.token);
      expect(r.warnings).toEqual([expect.stringMatching(new RegExp(`Port ${first.port} is now used by another program`))]);
      await expect(r.listen({ port: first.port })).rejects.toThrow(`Port ${first.port} is in use by another program`);
    } finally {
      squatter.close();
    }
  });

  it('a damaged address file is replaced, not trusted', async () => {
    const r = rig();
    fs.writeFileSync(r.core.paths.browserAddressFile, '{"port": 80, "token": "short"}');
    const s = await r.listen();
    expect(s.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(r.warnings).toEqual([expect.stringMatching(/is not a browser-mode address/)]);
    expect(JSON.parse(fs.readFileSync(r.core.paths.browserAddressFile, 'utf8'))).toEqual({ port: s.port, token: s.token });
  });
});
