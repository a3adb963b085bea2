/**
 * One browser-mode socket, carrying contract calls to the core with bounded memory. A client
 * that pipelines is slowed down, not cut off; one that stops reading loses its socket:
 *  - at most maxInFlight answers per socket are being produced or waiting to reach the kernel;
 *    further requests wait, unparsed, while the socket stops reading (TCP pushes back). What
 *    arrives after that is what `ws` had already read (one read from the kernel), so a burst of
 *    small calls waits here and is answered as the answers drain;
 *  - more than maxQueuedBytes of waiting requests can only come from a broken transport: the
 *    socket is closed (1008, policy violation);
 *  - more than maxBufferedBytes of unsent output (answers or events) means the client is not
 *    reading: the socket is dropped.
 * Protocol errors (bad UTF-8, reserved bits, unknown opcodes, oversize frames) are closed by `ws`
 * with the matching code; the 'error' listener here is what keeps them from stopping the process.
 */
import type { RawData, WebSocket } from 'ws';
import { wireRequestSchema, type WireMessage } from '../../shared/contract';
import type { Dispatch } from '../ipc/dispatcher';
import type { Logger } from '../logger';
import { MAX_WIRE_REQUEST_BYTES } from '../../shared/wire-limits';

export const SOCKET_LIMITS = {
  maxInFlight: 32,
  maxQueuedBytes: 2 * MAX_WIRE_REQUEST_BYTES,
  maxBufferedBytes: 16 * 1024 * 1024,
};

const MALFORMED = { ok: false, error: { code: 'invalid_input', message: 'Malformed request' } };

export interface SocketSession {
  /** Pushes an already-serialised event; drops the socket if it has stopped reading. */
  sendEvent(text: string): void;
}

export function serveSocket(ws: WebSocket, dispatch: Dispatch, log: Logger, limits = SOCKET_LIMITS): SocketSession {
  let inFlight = 0;
  let open = true;
  const waiting: RawData[] = [];
  let waitingBytes = 0;
  const size = (data: RawData) => (Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : data.byteLength);

  ws.on('error', (err) => log.warn(`browser-mode socket closed: ${err.message}`));
  ws.on('close', () => {
    open = false;
    waiting.length = 0;
    waitingBytes = 0;
  });
  ws.on('message', (data) => {
    if (!open) return;
    if (inFlight < limits.maxInFlight) {
      void answer(data);
      return;
    }
    if (waitingBytes + size(data) > limits.maxQueuedBytes) {
      drop(1008, 'Too many requests at once');
      return;
    }
    waiting.push(data);
    waitingBytes += size(data);
    ws.pause();
  });

  function drop(code: 1008 | null, reason: string): void {
    if (!open) return;
    open = false;
    waiting.length = 0;
    waitingBytes = 0;
    log.warn(`browser-mode socket dropped: ${reason}`);
    if (!code) return ws.terminate();
    ws.resume(); // read (and ignore) the rest, so the closing handshake can complete
    ws.close(code, reason);
  }

  /** Sends unless the client has let too much pile up; `done` runs once the bytes left main's buffers. */
  function send(text: string, done?: () => void): void {
    if (open && ws.bufferedAmount + text.length > limits.maxBufferedBytes) drop(null, 'the client stopped reading');
    if (!open || ws.readyState !== ws.OPEN) {
      done?.();
      return;
    }
    ws.send(text, () => done?.());
  }

  async function answer(data: RawData): Promise<void> {
    inFlight++;
    let id = -1;
    let result: unknown = MALFORMED;
    try {
      const parsed = wireRequestSchema.safeParse(JSON.parse(data.toString()));
      if (parsed.success) {
        id = parsed.data.id;
        result = await dispatch(parsed.data.call, parsed.data.input);
      }
    } catch (err) {
      if (!(err instanceof SyntaxError)) {
        log.error(`browser-mode request failed: ${(err as Error)?.stack ?? String(err)}`);
        result = { ok: false, error: { code: 'internal', message: 'The request could not be handled' } };
      }
    }
    let text: string;
    try {
      text = JSON.stringify({ kind: 'result', id, result } satisfies WireMessage);
    } catch (err) {
      text = JSON.stringify({
        kind: 'result',
        id,
        result: { ok: false, error: { code: 'internal', message: `The answer could not be sent: ${(err as Error).message}` } },
      } satisfies WireMessage);
    }
    send(text, () => {
      inFlight--;
      next();
    });
  }

  function next(): void {
    while (open && inFlight < limits.maxInFlight && waiting.length) {
      const data = waiting.shift()!;
      waitingBytes -= size(data);
      void answer(data);
    }
    if (open && !waiting.length && ws.isPaused) ws.resume();
  }

  return { sendEvent: (text) => send(text) };
}
