/**
 * Browser mode keeps its port and token per library (`browser.json` in the library folder,
 * readable by its owner only), so a restart comes back at the same address and an open tab
 * reconnects instead of saying "reconnecting" forever. `--port` picks the port; `--new-token`
 * forgets the stored address (a token that was shared by mistake). A stored port that another
 * program took since is given up for a free one, and the new address is printed.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { Logger } from '../logger';

export interface BrowserAddress {
  port: number;
  token: string;
}

export interface RememberOptions<S extends BrowserAddress> {
  /** The library's `browser.json`. */
  file: string;
  /** `--port N`: this port or fail (0: any free port). Undefined: the stored port, else any. */
  port?: number;
  /** `--new-token`: a new token and port, forgetting the stored ones. */
  newToken?: boolean;
  start(port: number, token: string): Promise<S>;
  log: Logger;
}

export async function listenAtRememberedAddress<S extends BrowserAddress>(opts: RememberOptions<S>): Promise<S> {
  const stored = opts.newToken ? null : readAddress(opts.file, opts.log);
  const token = stored?.token ?? crypto.randomBytes(24).toString('base64url');
  const port = opts.port ?? stored?.port ?? 0;
  let server: S;
  try {
    server = await opts.start(port, token);
  } catch (err) {
    const inUse = (err as NodeJS.ErrnoException).code === 'EADDRINUSE';
    if (!inUse) throw err;
    if (opts.port !== undefined)
      throw new Error(`Port ${port} is in use by another program; choose another with --port`, { cause: err });
    opts.log.warn(`Port ${port} is now used by another program; browser mode moves to a free one (reopen the new address)`);
    server = await opts.start(0, token);
  }
  try {
    writeAddress(opts.file, { port: server.port, token: server.token });
  } catch (err) {
    opts.log.warn(`The address could not be kept for the next start: ${(err as Error).message}`);
  }
  return server;
}

function readAddress(file: string, log: Logger): BrowserAddress | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      log.warn(`${file} could not be read (${(err as Error).message}); a new address is made`);
    return null;
  }
  try {
    const v = JSON.parse(text) as Partial<BrowserAddress>;
    const portOk = Number.isInteger(v.port) && v.port! > 0 && v.port! <= 65535;
    const tokenOk = typeof v.token === 'string' && /^[A-Za-z0-9_-]{32,}$/.test(v.token);
    if (portOk && tokenOk) return { port: v.port!, token: v.token! };
  } catch {
    // fall through: a damaged file is replaced
  }
  log.warn(`${file} is not a browser-mode address; a new one is made`);
  return null;
}

/** Written beside, then renamed: never a half-written file; owner-only, whatever the umask. */
function writeAddress(file: string, address: BrowserAddress): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(address) + '\n', { mode: 0o600 });
  fs.chmodSync(tmp, 0o600);
  fs.renameSync(tmp, file);
}
