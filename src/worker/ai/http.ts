/**
 * The one HTTP call every AI backend makes, with failures mapped to what the job runtime
 * understands: plain Error = retry with backoff, RetryLaterError = wait without spending an
 * attempt, PermanentJobError = fail now. No message ever contains the API key.
 */
import { PermanentJobError, RetryLaterError } from '../../shared/jobs/errors';

export const DEFAULT_RETRY_AFTER_MS = 60_000;
const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;
const EXCERPT_CHARS = 300;

export function abortError(message = 'AI analysis was aborted'): Error {
  return new DOMException(message, 'AbortError');
}

/** Removes secrets (and anything that looks like a bearer token) from text bound for a message. */
export function redact(text: string, secrets: readonly (string | null | undefined)[] = []): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join('[redacted]');
  return out.replace(/(Bearer\s+)[^\s"',;]+/gi, '$1[redacted]');
}

/** Whitespace collapsed, at most `max` characters. */
export function excerpt(text: string, max = EXCERPT_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (!flat) return '(empty)';
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The URL without credentials, query or fragment: safe to show. */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}

/** Parses Retry-After (delta-seconds or HTTP-date) into milliseconds; default 60 s. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number {
  if (value === null || value.trim() === '') return DEFAULT_RETRY_AFTER_MS;
  const v = value.trim();
  let ms: number;
  if (/^\d+$/.test(v)) ms = Number(v) * 1000;
  else {
    const at = Date.parse(v);
    if (Number.isNaN(at)) return DEFAULT_RETRY_AFTER_MS;
    ms = at - now;
  }
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(1000, ms));
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))}s`;
}

/** Digs a system/undici error code out of fetch's "fetch failed" TypeError. */
function networkCode(err: unknown): string {
  let e: unknown = err;
  for (let depth = 0; depth < 5 && e; depth++) {
    const obj = e as { code?: unknown; errors?: unknown[]; cause?: unknown };
    if (typeof obj.code === 'string') {
      // undici reports a socket the server closed mid-response as UND_ERR_SOCKET.
      return obj.code === 'UND_ERR_SOCKET' ? 'ECONNRESET' : obj.code;
    }
    if (Array.isArray(obj.errors) && obj.errors.length > 0) {
      e = obj.errors[0];
      continue;
    }
    e = obj.cause;
  }
  return err instanceof Error ? err.message : String(err);
}

export interface PostJsonOptions {
  headers?: Record<string, string>;
  signal?: AbortSignal;
  timeoutMs: number;
  /** Values that must never appear in an error message (API keys). */
  secrets?: readonly (string | null | undefined)[];
  /** Model name, for the 404 message. */
  model?: string;
}

/** POSTs JSON and returns the parsed JSON reply of a 2xx response; throws mapped errors otherwise. */
export async function postJson(url: string, body: unknown, opts: PostJsonOptions): Promise<unknown> {
  const { signal, timeoutMs, secrets = [] } = opts;
  const where = redact(displayUrl(url), secrets);
  const clean = (s: string, max?: number) => excerpt(redact(s, secrets), max);
  if (signal?.aborted) throw abortError();

  const timer = new AbortController();
  const timeout = setTimeout(() => timer.abort(), timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timer.signal]) : timer.signal;

  let status: number;
  let headers: Headers;
  let text: string;
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...opts.headers },
      body: JSON.stringify(body),
      signal: combined,
    });
    status = res.status;
    headers = res.headers;
    text = await res.text();
  } catch (err) {
    // The cause is left off on purpose: it can carry the URL's credentials, which must never reach a message or log.
    /* eslint-disable preserve-caught-error */
    if (signal?.aborted) throw abortError();
    if (timer.signal.aborted) throw new Error(`AI backend timed out after ${formatSeconds(timeoutMs)}`);
    throw new Error(`Cannot reach the AI backend at ${where}: ${redact(networkCode(err), secrets)}`);
    /* eslint-enable preserve-caught-error */
  } finally {
    clearTimeout(timeout);
  }

  if (status === 429) {
    const ms = parseRetryAfter(headers.get('retry-after'));
    throw new RetryLaterError(`The AI backend is rate limiting requests (HTTP 429); retrying in ${formatSeconds(ms)}`, ms);
  }
  if (status === 401 || status === 403) {
    throw new PermanentJobError(`The AI backend rejected the API key (${status})`);
  }
  if (status === 404) {
    throw new PermanentJobError(
      `The AI backend at ${where} returned 404: model ${JSON.stringify(opts.model ?? '?')} not found (or wrong endpoint): ${clean(text, 200)}`,
    );
  }
  if (status >= 500 || status === 408) {
    throw new Error(`The AI backend failed with HTTP ${status}: ${clean(text, 200)}`);
  }
  if (status < 200 || status >= 300) {
    // Other 4xx: the request itself is unacceptable (e.g. a model without vision); a retry won't help.
    throw new PermanentJobError(`The AI backend refused the request with HTTP ${status}: ${clean(text, 200)}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new PermanentJobError(`The AI backend sent a response that is not JSON: ${clean(text)}`);
  }
}
