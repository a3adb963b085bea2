/** The AI connection error says the likely cause in plain words (issue 32, item 14). */
import { describe, expect, it } from 'vitest';
import { aiConnectionHint } from './aiHint';

describe('aiConnectionHint', () => {
  it('asks whether Ollama is running when nothing answers', () => {
    const hint = aiConnectionHint(
      'ollama',
      'http://127.0.0.1:11434',
      'Cannot reach the AI backend at http://127.0.0.1:11434/api/chat: ECONNREFUSED',
    );
    expect(hint).toMatch(/^Is Ollama running\?/);
    expect(hint).toContain('http://127.0.0.1:11434');
  });
  it('names the server for an OpenAI-compatible backend', () => {
    expect(aiConnectionHint('openai-compatible', 'http://127.0.0.1:1234/v1', 'x: ECONNREFUSED')).toMatch(
      /^Is the AI server running\?/,
    );
  });
  it('says an unknown host, a missing model and a refused key each their own way', () => {
    expect(aiConnectionHint('ollama', 'http://olama:11434', 'x: ENOTFOUND')).toMatch(/host name/);
    expect(aiConnectionHint('ollama', 'u', 'HTTP 404: model "llava" not found')).toMatch(/ollama pull/);
    expect(aiConnectionHint('openai-compatible', 'u', 'HTTP 401 Unauthorized')).toMatch(/API key/);
  });
  it('adds nothing to an error it cannot explain better', () => {
    expect(aiConnectionHint('ollama', 'u', 'The reply was not JSON')).toBeNull();
  });
});
