/**
 * How many connections browser mode holds, and for how long, so that no client — with the token
 * or without — can use up main's memory or file descriptors:
 *  - all TCP connections are capped (each costs a descriptor; an import needs them too);
 *  - before the upgrade, a connection that sends nothing (or no whole request) is closed;
 *  - WebSockets on the run's token are capped, so what unfinished frames can pin is at most
 *    maxSockets × MAX_WIRE_REQUEST_BYTES;
 *  - after the upgrade, each socket is pinged (browsers answer on their own); one that has sent
 *    nothing, not even the answer, since the previous ping is closed, and so is one that has read
 *    none of its answers since then;
 *  - a message that has begun and not ended within frameStallMs is closed with its socket.
 * Times are parameters, so tests run them in milliseconds.
 */
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { Logger } from '../logger';
import { FrameProgress } from './frame-progress';

export interface ConnectionLimits {
  /** TCP connections of any kind, WebSockets included; more are closed as they arrive. */
  maxConnections: number;
  /** Open WebSockets on the run's token; one more is refused (503). */
  maxSockets: number;
  /** Before the upgrade: a connection silent this long, or without a whole request, is closed. */
  requestIdleMs: number;
  /** After the upgrade: the ping interval; a socket silent for a whole interval is closed. */
  heartbeatMs: number;
  /** A message not finished this long after its first byte is closed with its socket. */
  frameStallMs: number;
}

export const CONNECTION_LIMITS: ConnectionLimits = {
  maxConnections: 128,
  maxSockets: 8,
  requestIdleMs: 20_000,
  heartbeatMs: 20_000,
  frameStallMs: 15_000,
};

/** The http.createServer options that bound how long a request may take to arrive. */
export function httpServerOptions(limits: ConnectionLimits): http.ServerOptions {
  return {
    headersTimeout: limits.requestIdleMs,
    requestTimeout: limits.requestIdleMs,
    // How often Node looks for requests past those timeouts.
    connectionsCheckingInterval: Math.max(10, Math.min(limits.requestIdleMs / 2, 5_000)),
  };
}

/** Caps the server's connections and closes the ones idle before an upgrade. */
export function limitConnections(server: http.Server, limits: ConnectionLimits): void {
  server.maxConnections = limits.maxConnections;
  // Node closes a socket idle this long (it has no 'timeout' listener of ours), including one that
  // never sent a byte; a response being streamed is activity and keeps it.
  server.timeout = limits.requestIdleMs;
  server.keepAliveTimeout = Math.min(server.keepAliveTimeout, limits.requestIdleMs);
}

/**
 * Watches one upgraded socket for silence and stalled messages. `raw` is the TCP socket under
 * `ws`; its bytes are read alongside ws's own reading.
 */
export function guardSocket(ws: WebSocket, raw: Duplex, limits: ConnectionLimits, log: Logger): void {
  // The HTTP server's idle timer would otherwise still close the socket; the heartbeat replaces it.
  (raw as Duplex & { setTimeout?(ms: number): void }).setTimeout?.(0);
  const progress = new FrameProgress();
  let stall: NodeJS.Timeout | null = null;
  let heard = true;
  const drop = (why: string) => {
    log.warn(`browser-mode socket dropped: ${why}`);
    ws.terminate();
  };
  raw.on('data', (chunk: Buffer) => {
    heard = true;
    progress.feed(chunk);
    if (!progress.inMessage) {
      if (stall) clearTimeout(stall);
      stall = null;
    } else if (!stall) armStall();
  });
  function armStall(): void {
    stall = setTimeout(() => {
      // Not the client's doing while main has stopped reading it (answers draining): wait on.
      if (ws.isPaused) return armStall();
      drop(`a message was not finished within ${limits.frameStallMs} ms`);
    }, limits.frameStallMs);
    stall.unref();
  }
  let unsentBefore = 0;
  const heartbeat = setInterval(() => {
    // While main has stopped reading it (answers draining), the client's pong waits unread; that is
    // the client's doing only when its answers do not drain either.
    const unsent = ws.bufferedAmount;
    if (!heard && !ws.isPaused) return drop(`it sent nothing for ${limits.heartbeatMs} ms, not even a pong`);
    if (!heard && unsent > 0 && unsent === unsentBefore) return drop(`it read none of its answers for ${limits.heartbeatMs} ms`);
    unsentBefore = unsent;
    heard = false;
    // A ping behind unsent answers would only add to them (and look like progress).
    if (unsent === 0 && ws.readyState === ws.OPEN) ws.ping();
  }, limits.heartbeatMs);
  heartbeat.unref();
  ws.on('close', () => {
    clearInterval(heartbeat);
    if (stall) clearTimeout(stall);
  });
}
