/**
 * A real HTTP server on 127.0.0.1 that speaks just enough of Ollama's `/api/chat` and the
 * OpenAI-compatible `/v1/chat/completions` to exercise the AI backends, including their
 * failure modes. It is the only fake in the AI tests: the real endpoints are remote.
 *
 * Ollama base URL: `stub.url`; OpenAI-compatible base URL: `${stub.url}/v1`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type AiStubMode =
  /** A valid structured reply: 1935–1945, confidence 0.4, two clues. */
  | 'ok'
  /** Holds the response for `slowMs` (default 60 s) — beyond any client timeout in tests; `close()` ends it. */
  | 'slow'
  /** HTTP 500 whose body echoes the request's Authorization header (a leaky proxy), to test redaction. */
  | '500'
  /** HTTP 429 with `Retry-After: 7`. */
  | '429'
  /** HTTP 429 with `Retry-After` as an HTTP-date 120 s ahead. */
  | '429-date'
  /** HTTP 429 without Retry-After. */
  | '429-bare'
  /** 200 with model content that is not JSON. */
  | 'malformed-json'
  /** 200 with JSON content of the wrong shape (confidence "high", no clues). */
  | 'schema-violation'
  /** 200 with earliestYear > latestYear. */
  | 'bad-years'
  /** 200 with a year before photography existed. */
  | 'year-out-of-range'
  /** HTTP 401 whose body echoes the presented key, as OpenAI's does. */
  | 'unauthorized'
  /** HTTP 403. */
  | 'forbidden'
  /** HTTP 404 "model not found". */
  | 'model-not-found'
  /** 200 with an HTML body (e.g. a captive portal or a web UI at the wrong path). */
  | 'html'
  /** Destroys the socket without answering (ECONNRESET at the client). */
  | 'reset';

export interface AiStubRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON body (or the raw string when it is not JSON). */
  body: unknown;
}

export interface AiStub {
  /** http://127.0.0.1:<port> — the Ollama base URL; append `/v1` for OpenAI-compatible. */
  url: string;
  /** Sets the mode for every request that is not covered by the queue. */
  setMode(mode: AiStubMode): void;
  /** Queues modes for the next requests, one per request, before falling back to `setMode`'s. */
  queueModes(...modes: AiStubMode[]): void;
  requests: AiStubRequest[];
  close(): Promise<void>;
}

export const STUB_OK_REPLY = {
  earliestYear: 1935,
  latestYear: 1945,
  confidence: 0.4,
  summary: 'Clothing and the car suggest the late 1930s or early 1940s.',
  clues: [
    {
      category: 'clothing',
      observation: "Women's dresses with padded shoulders and knee-length hems.",
      earliestYear: 1935,
      latestYear: 1948,
    },
    { category: 'vehicle', observation: 'A rounded sedan with separate headlamps.', earliestYear: 1933, latestYear: 1946 },
  ],
};

function contentFor(mode: AiStubMode): string {
  switch (mode) {
    case 'malformed-json':
      return 'Sure! This photo looks like the 1940s: {earliestYear: 1935, latestYear: 1945, confidence: high';
    case 'schema-violation':
      return JSON.stringify({ earliestYear: '1930s', latestYear: 1945, confidence: 'high' });
    case 'bad-years':
      return JSON.stringify({ ...STUB_OK_REPLY, earliestYear: 1950, latestYear: 1930 });
    case 'year-out-of-range':
      return JSON.stringify({ ...STUB_OK_REPLY, earliestYear: 1750 });
    default:
      return JSON.stringify(STUB_OK_REPLY);
  }
}

function envelope(api: 'ollama' | 'openai', model: string, content: string): unknown {
  if (api === 'ollama') {
    return {
      model,
      created_at: new Date().toISOString(),
      message: { role: 'assistant', content },
      done: true,
      done_reason: 'stop',
    };
  }
  return {
    id: 'chatcmpl-stub',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: 'stop' }],
  };
}

export async function startAiStub(opts: { slowMs?: number } = {}): Promise<AiStub> {
  const slowMs = opts.slowMs ?? 60_000;
  let mode: AiStubMode = 'ok';
  const queue: AiStubMode[] = [];
  const requests: AiStubRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        // keep the raw string
      }
      const path = (req.url ?? '/').split('?')[0];
      requests.push({ method: req.method ?? '', path, headers: req.headers, body });

      const json = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(payload));
      };
      const api = path === '/api/chat' ? 'ollama' : path === '/v1/chat/completions' ? 'openai' : null;
      if (req.method !== 'POST' || !api) return json(404, { error: `no route for ${req.method} ${path}` });
      const model = typeof (body as { model?: unknown })?.model === 'string' ? (body as { model: string }).model : '?';

      const m = queue.shift() ?? mode;
      switch (m) {
        case 'slow': {
          const t = setTimeout(() => {
            timers.delete(t);
            json(200, envelope(api, model, contentFor('ok')));
          }, slowMs);
          timers.add(t);
          return;
        }
        case '500':
          return json(500, {
            error: 'internal error while loading model',
            echo: `authorization=${req.headers.authorization ?? ''}`,
          });
        case '429':
          return json(429, { error: 'rate limited' }, { 'retry-after': '7' });
        case '429-date':
          return json(429, { error: 'rate limited' }, { 'retry-after': new Date(Date.now() + 120_000).toUTCString() });
        case '429-bare':
          return json(429, { error: 'rate limited' });
        case 'unauthorized': {
          const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
          return json(401, { error: { message: `Incorrect API key provided: ${key}`, code: 'invalid_api_key' } });
        }
        case 'forbidden':
          return json(403, { error: 'forbidden' });
        case 'model-not-found':
          return json(404, { error: `model "${model}" not found, try pulling it first` });
        case 'html':
          res.writeHead(200, { 'content-type': 'text/html' });
          return res.end('<!doctype html><html><body><h1>Welcome to the router login</h1></body></html>');
        case 'reset':
          req.socket.destroy();
          return;
        default:
          return json(200, envelope(api, model, contentFor(m)));
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    setMode(m) {
      mode = m;
    },
    queueModes(...ms) {
      queue.push(...ms);
    },
    requests,
    async close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

/** A loopback port with nothing listening (for "connection refused"). */
export async function closedPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', () => resolve()));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}
