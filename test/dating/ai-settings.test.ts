/**
 * Visual-analysis settings: a backend without an address or a model is not saved (each field says
 * why), and "Test connection" makes one real request — through a worker, as an `ai_test` job — to
 * the backend as typed, reporting what came back or what went wrong. The backend is a stub server
 * on 127.0.0.1 (the only fake: real ones are remote).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/core';
import type { JobSummary } from '../../src/shared/contract';
import { closedPort, startAiStub, type AiStub } from '../support/ai-stub-server';
import { openTestCore, waitForStatus } from '../support/core';

let core: Core | undefined;
let stub: AiStub | undefined;
afterEach(async () => {
  await core?.close();
  await stub?.close();
  core = stub = undefined;
});

async function test(c: Core, input: { aiBackend: 'ollama' | 'openai-compatible'; aiBaseUrl: string; aiModel: string }) {
  const r = await c.dispatch('settings.testAi', input);
  if (!r.ok) throw new Error(r.error.message);
  const { job } = r.value as { job: JobSummary };
  return waitForStatus(c, job.id, ['success', 'failed'], 60_000);
}

describe('AI backend settings', () => {
  it('refuses an Ollama or OpenAI-compatible backend without a web address or a model, per field', async () => {
    core = openTestCore({ runJobs: false });
    const r = await core.dispatch('settings.update', { aiBackend: 'ollama', aiBaseUrl: '', aiModel: '' });
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    const issues = (r as { error: { issues: { path: string[]; message: string }[] } }).error.issues;
    expect(issues).toEqual([
      { path: ['aiBaseUrl'], message: 'Enter the server’s address, e.g. http://127.0.0.1:11434' },
      { path: ['aiModel'], message: 'Enter the model’s name, e.g. llava:13b' },
    ]);
    const ftp = await core.dispatch('settings.update', { aiBackend: 'openai-compatible', aiBaseUrl: 'ftp://x', aiModel: 'm' });
    expect(ftp).toMatchObject({
      ok: false,
      error: { issues: [{ path: ['aiBaseUrl'], message: expect.stringMatching(/^Not a web address/) }] },
    });
    expect(core.settings.get().aiBackend).toBe('heuristic'); // nothing was saved
    // What a job can use is saved; so is any other setting while the backend is complete.
    expect(
      await core.dispatch('settings.update', { aiBackend: 'ollama', aiBaseUrl: 'http://127.0.0.1:11434', aiModel: 'llava:13b' }),
    ).toMatchObject({ ok: true });
    expect(await core.dispatch('settings.update', { jobRetentionDays: 10 })).toMatchObject({ ok: true });
  });

  it('tests the connection with one real request through a worker and says what came back', async () => {
    stub = await startAiStub();
    core = openTestCore({ concurrency: 1 });
    const before = stub.requests.length;
    const row = await test(core, { aiBackend: 'ollama', aiBaseUrl: stub.url, aiModel: 'llava:13b' });
    expect(row.status).toBe('success');
    expect(row.result_summary).toMatch(
      new RegExp(
        `^llava:13b at ${stub.url.replaceAll('.', '\\.')} answered in \\d+\\.\\d s with a valid dating reply \\(1935–1945\\): “`,
      ),
    );
    expect(stub.requests.length).toBe(before + 1);
    const req = stub.requests.at(-1)!;
    expect(req.path).toBe('/api/chat');
    expect((req.body as { messages: { images: string[] }[] }).messages[0].images).toHaveLength(1);
    // Testing does not save anything.
    expect(core.settings.get().aiBackend).toBe('heuristic');
  });

  it('reports a backend that is down, a rejected key and a missing model, at once and in words', async () => {
    stub = await startAiStub();
    core = openTestCore({ concurrency: 1 });
    const port = await closedPort();
    const down = await test(core, { aiBackend: 'ollama', aiBaseUrl: `http://127.0.0.1:${port}`, aiModel: 'llava' });
    expect(down.status).toBe('failed');
    expect(down.error_message).toBe(`Cannot reach the AI backend at http://127.0.0.1:${port}/api/chat: ECONNREFUSED`);
    expect(down.attempt).toBe(1); // a test is not retried

    stub.setMode('unauthorized');
    const key = await test(core, { aiBackend: 'openai-compatible', aiBaseUrl: `${stub.url}/v1`, aiModel: 'gpt-4o-mini' });
    expect(key.error_message).toBe('The AI backend rejected the API key (401)');

    stub.setMode('model-not-found');
    const model = await test(core, { aiBackend: 'ollama', aiBaseUrl: stub.url, aiModel: 'no-such-model' });
    expect(model.error_message).toMatch(/returned 404: model "no-such-model" not found/);
  });

  it('does not test what cannot be tested', async () => {
    core = openTestCore({ runJobs: false });
    expect(await core.dispatch('settings.testAi', { aiBackend: 'heuristic', aiBaseUrl: '', aiModel: '' })).toMatchObject({
      ok: false,
      error: { code: 'conflict' },
    });
    expect(await core.dispatch('settings.testAi', { aiBackend: 'ollama', aiBaseUrl: 'localhost', aiModel: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', issues: [{ path: ['aiBaseUrl'] }] },
    });
    expect(core.jobs.counts().queued).toBe(0);
  });
});
