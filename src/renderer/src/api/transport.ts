/**
 * How the renderer reaches main. The app code is identical in both modes; only this differs:
 * Electron's preload bridge, or browser mode's token-authenticated loopback WebSocket.
 */
import type { CircaBridge } from '../../../shared/bridge';

export type ConnectionState = 'connecting' | 'open' | 'closed';

export interface Transport {
  readonly kind: 'electron' | 'browser';
  call(name: string, input: unknown): Promise<unknown>;
  onEvent(listener: (event: string, payload: unknown) => void): () => void;
  onState(listener: (state: ConnectionState) => void): () => void;
  /**
   * URL of an image served by opaque id, e.g. mediaUrl('thumb', 42), one tile of its zoom view, or
   * the thumbnail of a later page of a multi-page scan (mediaUrl('page-thumb', 42, v, { page: 2 })).
   */
  mediaUrl(kind: MediaKind, id: number, version?: string | number, at?: MediaAddress): string;
}

export type MediaKind = 'thumb' | 'original' | 'tile' | 'page-thumb';

/** Which page (from 1; page 1 when left out) and, for a tile, which tile of its zoom view. */
export interface MediaAddress {
  page?: number;
  level?: number;
  col?: number;
  row?: number;
}

/** The path under /media/ of an image (see src/main/media/media.ts). */
function mediaPath(kind: MediaKind, id: number, at: MediaAddress = {}): string {
  const page = at.page ?? 1;
  if (kind === 'page-thumb') return `page-thumb/${id}/${page}`;
  if (kind === 'tile') return `tile/${id}/${page > 1 ? `p${page}/` : ''}${at.level}/${at.col}_${at.row}`;
  return `${kind}/${id}`;
}

declare global {
  interface Window {
    circa?: CircaBridge;
  }
}

function electronTransport(bridge: CircaBridge): Transport {
  return {
    kind: 'electron',
    call: (name, input) => bridge.call(name, input),
    onEvent: (l) => bridge.onEvent(l),
    onState: (l) => {
      l('open');
      return () => {};
    },
    mediaUrl: (kind, id, v, at) =>
      `circa://app/media/${mediaPath(kind, id, at)}${v !== undefined ? `?v=${encodeURIComponent(v)}` : ''}`,
  };
}

function browserTransport(token: string): Transport {
  type Pending = { resolve(v: unknown): void };
  const pending = new Map<number, Pending>();
  const eventListeners = new Set<(e: string, p: unknown) => void>();
  const stateListeners = new Set<(s: ConnectionState) => void>();
  let state: ConnectionState = 'connecting';
  let socket: WebSocket | null = null;
  let nextId = 1;
  let retryMs = 250;
  const queue: string[] = [];

  const setState = (s: ConnectionState) => {
    state = s;
    stateListeners.forEach((l) => l(s));
  };

  const connect = () => {
    const url = new URL('/ws', location.href);
    url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
    url.searchParams.set('token', token);
    const ws = new WebSocket(url);
    socket = ws;
    setState('connecting');
    ws.onopen = () => {
      retryMs = 250;
      setState('open');
      for (const m of queue.splice(0)) ws.send(m);
    };
    ws.onmessage = (e) => {
      let msg: { kind: string; id?: number; result?: unknown; event?: string; payload?: unknown };
      try {
        msg = JSON.parse(String(e.data));
      } catch {
        return;
      }
      if (msg.kind === 'result' && typeof msg.id === 'number') {
        pending.get(msg.id)?.resolve(msg.result);
        pending.delete(msg.id);
      } else if (msg.kind === 'event' && typeof msg.event === 'string') {
        eventListeners.forEach((l) => l(msg.event!, msg.payload));
      }
    };
    ws.onclose = () => {
      setState('closed');
      // Calls in flight on a dead socket fail as 'unavailable' rather than hanging forever.
      for (const [id, p] of pending) {
        p.resolve({ ok: false, error: { code: 'unavailable', message: 'Lost the connection to Circa; reconnecting…' } });
        pending.delete(id);
      }
      setTimeout(connect, retryMs);
      retryMs = Math.min(5000, retryMs * 2);
    };
  };
  connect();

  return {
    kind: 'browser',
    call(name, input) {
      const id = nextId++;
      const text = JSON.stringify({ id, call: name, input });
      return new Promise((resolve) => {
        pending.set(id, { resolve });
        if (state === 'open' && socket?.readyState === WebSocket.OPEN) socket.send(text);
        else queue.push(text);
      });
    },
    onEvent(l) {
      eventListeners.add(l);
      return () => eventListeners.delete(l);
    },
    onState(l) {
      stateListeners.add(l);
      l(state);
      return () => stateListeners.delete(l);
    },
    mediaUrl: (kind, id, v, at) =>
      `/media/${mediaPath(kind, id, at)}?token=${encodeURIComponent(token)}${v !== undefined ? `&v=${encodeURIComponent(v)}` : ''}`,
  };
}

/** Browser mode takes the token from the URL once, keeps it for the tab, and removes it from the address bar. */
function browserToken(): string {
  const url = new URL(location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    sessionStorage.setItem('circa.token', fromUrl);
    url.searchParams.delete('token');
    history.replaceState(null, '', url.pathname + url.search + url.hash);
    return fromUrl;
  }
  return sessionStorage.getItem('circa.token') ?? '';
}

export function createTransport(): Transport {
  return window.circa ? electronTransport(window.circa) : browserTransport(browserToken());
}
