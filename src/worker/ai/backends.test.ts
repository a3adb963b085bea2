import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PermanentJobError, RetryLaterError, serializeJobError, type JobErrorKind } from '../../shared/jobs/errors';
import { closedPort, startAiStub, STUB_OK_REPLY, type AiStub, type AiStubMode } from '../../../test/support/ai-stub-server';
import {
  aiAnalysisSchema,
  analyzeImage,
  modelReplySchema,
  parseRetryAfter,
  REPLY_JSON_SCHEMA,
  type AiBackendConfig,
} from './index';

const KEY = 'sk-test-SECRET-0123456789abcdef';
let stub: AiStub;
let dir: string;
let photo: string;
let photoBytes: Buffer;

beforeAll(async () => {
  stub = await startAiStub();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'circa-ai-'));
  photo = path.join(dir, 'photo.jpg');
  // Stored 1600×1200 with EXIF orientation 6 → displayed 1200×1600 → sent as 768×1024.
  await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#8a6d4b' } })
    .composite([{ input: { create: { width: 400, height: 300, channels: 3, background: '#203040' } }, left: 100, top: 100 }])
    .jpeg({ quality: 95 })
    .withMetadata({ orientation: 6 })
    .toFile(photo);
  photoBytes = await fs.readFile(photo);
});
afterAll(async () => {
  await stub.close();
  await fs.rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  stub.setMode('ok');
});

async function failure(p: Promise<unknown>): Promise<Error> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof Error)) throw new Error(`expected a rejection with an Error, got ${String(err)}`);
  return err;
}

function expectNoKey(err: Error): void {
  expect(err.message).not.toContain(KEY);
  expect(String(err.stack)).not.toContain(KEY);
  expect(JSON.stringify(serializeJobError(err))).not.toContain(KEY);
}

const backends: { name: string; make: (url: string) => AiBackendConfig; model: string }[] = [
  { name: 'ollama', make: (url) => ({ kind: 'ollama', baseUrl: url, model: 'llava:13b' }), model: 'llava:13b' },
  {
    name: 'openai-compatible',
    make: (url) => ({ kind: 'openai-compatible', baseUrl: `${url}/v1`, model: 'gpt-4o-mini', apiKey: KEY }),
    model: 'gpt-4o-mini',
  },
];

async function decodeSentImage(b64: string) {
  const buf = Buffer.from(b64, 'base64');
  expect(buf.equals(photoBytes)).toBe(false);
  return sharp(buf).metadata();
}

describe.each(backends)('$name backend', ({ name, make, model }) => {
  it('parses a valid reply into an AiAnalysis and sends a well-formed request', async () => {
    const before = stub.requests.length;
    const a = await analyzeImage(photo, make(stub.url));
    expect(aiAnalysisSchema.parse(a)).toEqual(a);
    expect(a).toMatchObject({ backend: name, model, earliestYear: 1935, latestYear: 1945, confidence: 0.4 });
    expect(a.clues).toHaveLength(2);
    expect(a.clues[0]).toMatchObject({ category: 'clothing', earliestYear: 1935, latestYear: 1948, confidence: 0.4 });
    expect(a.summary).toContain(STUB_OK_REPLY.summary);
    expect(a.summary).toMatch(/weak evidence/i);

    expect(stub.requests.length).toBe(before + 1);
    const req = stub.requests.at(-1)!;
    expect(req.headers['content-type']).toMatch(/application\/json/);
    const body = req.body as Record<string, any>;
    expect(body.model).toBe(model);
    let b64: string;
    if (name === 'ollama') {
      expect(req.path).toBe('/api/chat');
      expect(body.stream).toBe(false);
      expect(body.format).toEqual(REPLY_JSON_SCHEMA);
      expect(body.messages).toHaveLength(1);
      expect(body.messages[0].role).toBe('user');
      expect(body.messages[0].content).toMatch(/error-prone/);
      expect(body.messages[0].images).toHaveLength(1);
      b64 = body.messages[0].images[0];
      expect(req.headers.authorization).toBeUndefined();
    } else {
      expect(req.path).toBe('/v1/chat/completions');
      expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(body.response_format.type).toBe('json_schema');
      expect(body.response_format.json_schema.schema).toEqual(REPLY_JSON_SCHEMA);
      expect(body.response_format.json_schema.name).toMatch(/^[a-zA-Z0-9_-]+$/);
      const parts = body.messages[0].content;
      expect(parts[0]).toMatchObject({ type: 'text' });
      expect(parts[0].text).toMatch(/wide/i);
      expect(parts[1].type).toBe('image_url');
      const url: string = parts[1].image_url.url;
      expect(url.startsWith('data:image/jpeg;base64,')).toBe(true);
      b64 = url.slice('data:image/jpeg;base64,'.length);
    }
    expect(b64).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const meta = await decodeSentImage(b64);
    expect(meta.format).toBe('jpeg');
    expect([meta.width, meta.height]).toEqual([768, 1024]);
    expect(meta.orientation ?? 1).toBe(1);
  });

  const failures: { mode: AiStubMode; kind: JobErrorKind; message: RegExp; retryAfterMs?: [number, number] }[] = [
    { mode: '500', kind: 'retryable', message: /^The AI backend failed with HTTP 500: .*internal error/ },
    { mode: '429', kind: 'retry_later', message: /HTTP 429/, retryAfterMs: [7000, 7000] },
    { mode: '429-date', kind: 'retry_later', message: /HTTP 429/, retryAfterMs: [90_000, 120_000] },
    { mode: '429-bare', kind: 'retry_later', message: /HTTP 429/, retryAfterMs: [60_000, 60_000] },
    { mode: 'malformed-json', kind: 'permanent', message: /not valid JSON: Sure! This photo looks like the 1940s/ },
    {
      mode: 'schema-violation',
      kind: 'permanent',
      message: /does not match the expected schema \(earliestYear: .*Reply: \{"earliestYear":"1930s"/,
    },
    { mode: 'bad-years', kind: 'permanent', message: /does not match the expected schema.*earliestYear is after latestYear/ },
    { mode: 'year-out-of-range', kind: 'permanent', message: /does not match the expected schema \(earliestYear: .*1826/ },
    { mode: 'unauthorized', kind: 'permanent', message: /^The AI backend rejected the API key \(401\)$/ },
    { mode: 'forbidden', kind: 'permanent', message: /^The AI backend rejected the API key \(403\)$/ },
    { mode: 'model-not-found', kind: 'permanent', message: /returned 404: model ".+" not found/ },
    { mode: 'html', kind: 'permanent', message: /not JSON: <!doctype html>/ },
    { mode: 'reset', kind: 'retryable', message: /^Cannot reach the AI backend at http:\/\/127\.0\.0\.1:\d+\/.*: ECONNRESET$/ },
  ];

  it.each(failures)('$mode → $kind', async ({ mode, kind, message, retryAfterMs }) => {
    stub.setMode(mode);
    const err = await failure(analyzeImage(photo, make(stub.url)));
    expect(serializeJobError(err).kind).toBe(kind);
    expect(err.message).toMatch(message);
    expectNoKey(err);
    if (kind === 'permanent') expect(err).toBeInstanceOf(PermanentJobError);
    if (kind === 'retryable') {
      expect(err).not.toBeInstanceOf(PermanentJobError);
      expect(err).not.toBeInstanceOf(RetryLaterError);
    }
    if (retryAfterMs) {
      expect(err).toBeInstanceOf(RetryLaterError);
      const ms = (err as RetryLaterError).retryAfterMs;
      expect(ms).toBeGreaterThanOrEqual(retryAfterMs[0]);
      expect(ms).toBeLessThanOrEqual(retryAfterMs[1]);
    }
    // excerpts of what came back stay short
    const reply = /Reply: (.*)$|not (?:valid )?JSON: (.*)$/.exec(err.message);
    if (reply) expect((reply[1] ?? reply[2]).length).toBeLessThanOrEqual(300);
  });

  it('times out (retryably) when the backend is too slow', async () => {
    stub.setMode('slow');
    const err = await failure(analyzeImage(photo, make(stub.url), { timeoutMs: 300 }));
    expect(err.message).toBe('AI backend timed out after 0.3s');
    expect(serializeJobError(err).kind).toBe('retryable');
  });

  it('stops with an AbortError when the job is cancelled mid-request', async () => {
    stub.setMode('slow');
    const ctrl = new AbortController();
    const before = stub.requests.length;
    const p = analyzeImage(photo, make(stub.url), { signal: ctrl.signal });
    // abort once the request has reached the server
    while (stub.requests.length === before) await new Promise((r) => setImmediate(r));
    ctrl.abort();
    const err = await failure(p);
    expect(err.name).toBe('AbortError');
  });

  it('reports a refused connection retryably, naming the URL and code', async () => {
    const port = await closedPort();
    const err = await failure(analyzeImage(photo, make(`http://127.0.0.1:${port}`)));
    expect(err.message).toMatch(new RegExp(`^Cannot reach the AI backend at http://127\\.0\\.0\\.1:${port}/.*: ECONNREFUSED$`));
    expect(serializeJobError(err).kind).toBe('retryable');
    expectNoKey(err);
  });

  it('recovers on the next attempt after a queued 500', async () => {
    stub.queueModes('500', 'ok');
    const first = await failure(analyzeImage(photo, make(stub.url)));
    expect(first.message).toMatch(/HTTP 500/);
    const second = await analyzeImage(photo, make(stub.url));
    expect(second.earliestYear).toBe(1935);
  });
});

describe('AI backend details', () => {
  it('redacts the key even when the server echoes it back', async () => {
    stub.setMode('500');
    const err = await failure(
      analyzeImage(photo, { kind: 'openai-compatible', baseUrl: `${stub.url}/v1`, model: 'm', apiKey: KEY }),
    );
    expect(err.message).toContain('authorization=Bearer [redacted]');
    expectNoKey(err);
    expect((stub.requests.at(-1)!.body as { messages: unknown }).messages).toBeDefined();
  });

  it('sends no Authorization header when no key is configured', async () => {
    await analyzeImage(photo, { kind: 'openai-compatible', baseUrl: `${stub.url}/v1/`, model: 'local', apiKey: null });
    const req = stub.requests.at(-1)!;
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBeUndefined();
  });

  it('rejects an invalid configuration permanently without echoing the key', async () => {
    const err = await failure(
      analyzeImage(photo, { kind: 'openai-compatible', baseUrl: 'ftp://example', model: '', apiKey: KEY }),
    );
    expect(err).toBeInstanceOf(PermanentJobError);
    expect(err.message).toMatch(/^Invalid AI backend configuration: .*baseUrl/);
    expectNoKey(err);
  });

  it('fails permanently on an undecodable image without calling the backend', async () => {
    const bad = path.join(dir, 'bad.jpg');
    await fs.writeFile(bad, 'not a jpeg');
    const before = stub.requests.length;
    const err = await failure(analyzeImage(bad, { kind: 'ollama', baseUrl: stub.url, model: 'x' }));
    expect(err).toBeInstanceOf(PermanentJobError);
    expect(stub.requests.length).toBe(before);
  });

  it('parses Retry-After as seconds or an HTTP date, defaulting to 60 s', () => {
    const now = Date.parse('2024-05-01T12:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7000);
    expect(parseRetryAfter('Wed, 01 May 2024 12:02:00 GMT', now)).toBe(120_000);
    expect(parseRetryAfter(null, now)).toBe(60_000);
    expect(parseRetryAfter('soon', now)).toBe(60_000);
    expect(parseRetryAfter('Wed, 01 May 2024 11:00:00 GMT', now)).toBe(1000); // past date: retry shortly
  });

  it('keeps the JSON schema and the zod reply schema in step', () => {
    expect(modelReplySchema.safeParse(STUB_OK_REPLY).success).toBe(true);
    expect([...REPLY_JSON_SCHEMA.required].sort()).toEqual(Object.keys(STUB_OK_REPLY).sort());
    expect([...REPLY_JSON_SCHEMA.properties.clues.items.required].sort()).toEqual(Object.keys(STUB_OK_REPLY.clues[0]).sort());
  });

  it('caps the confidence a model claims', async () => {
    stub.setMode('ok');
    const { parseModelReply } = await import('./reply');
    const a = parseModelReply(JSON.stringify({ ...STUB_OK_REPLY, confidence: 0.95 }), 'ollama', 'm');
    expect(a.confidence).toBe(0.5);
    expect(a.summary).toMatch(/capped/);
  });
});
