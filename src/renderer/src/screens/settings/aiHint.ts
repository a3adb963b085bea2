/**
 * What most likely went wrong when the AI backend could not be reached, in the archivist's words:
 * the error itself names a socket code (ECONNREFUSED, ENOTFOUND…), which says nothing to someone
 * who only started Ollama once, months ago.
 */
import type { Settings } from '../../../../shared/contract';

export function aiConnectionHint(backend: Settings['aiBackend'], baseUrl: string, error: string): string | null {
  const server = backend === 'ollama' ? 'Ollama' : 'the AI server';
  const at = baseUrl ? ` at ${baseUrl}` : '';
  if (/ECONNREFUSED/.test(error))
    return backend === 'ollama'
      ? `Is Ollama running? Nothing answered${at}: start it (the Ollama app, or \`ollama serve\`), or check the port in the URL.`
      : `Is the AI server running? Nothing answered${at}: start it, or check the port in the URL.`;
  if (/ENOTFOUND|EAI_AGAIN/.test(error))
    return `The host name in the URL is not known: check its spelling, or use 127.0.0.1 for ${server} on this computer.`;
  if (/ECONNRESET|EPIPE/.test(error)) return `${server} closed the connection: is the URL the API's, and is it http (not https)?`;
  if (/ETIMEDOUT|timed out|did not answer/i.test(error))
    return `${server} did not answer in time: it may still be loading the model; try again in a minute.`;
  if (/\b404\b|not found/i.test(error) && backend === 'ollama')
    return 'Is the model pulled? Run `ollama pull <model>` with the model named above, or check its spelling.';
  if (/\b401\b|\b403\b/.test(error)) return 'The server refused the API key: check it, and that it may use this model.';
  return null;
}
