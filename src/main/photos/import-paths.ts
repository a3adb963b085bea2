/**
 * What the archivist typed (or pasted) as paths to import, made into absolute paths before
 * anything is read. A relative path used to be resolved against the server's own working folder,
 * which the archivist never chose: it is refused, with the full path it most likely meant. `~` and
 * `~/…` are the home folder, said explicitly; a `file://` URL (pasted from a file manager or a
 * browser's address bar) is the file it names.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CallFailure } from '../../shared/result';

export function importPaths(typed: readonly string[], homeDir: string = os.homedir()): string[] {
  return typed.map((p) => importPath(p, homeDir));
}

export function importPath(typed: string, homeDir: string = os.homedir()): string {
  const p = typed.trim();
  if (/^file:/i.test(p)) return fromFileUrl(p);
  if (p === '~') return homeDir;
  if (p.startsWith('~/') || p.startsWith(`~${path.sep}`)) return path.join(homeDir, p.slice(2));
  if (path.isAbsolute(p)) return p;
  throw new CallFailure(
    'invalid_input',
    `"${p}" is not a full path, so Circa cannot tell which folder it is in. Type it from the top, e.g. ` +
      `${path.join(homeDir, p)} (or ~/${p} for your home folder).`,
  );
}

function fromFileUrl(p: string): string {
  let url: URL;
  try {
    url = new URL(p);
  } catch {
    throw new CallFailure('invalid_input', `"${p}" is not a file URL Circa can read: give the path instead, e.g. /home/…`);
  }
  if (url.hostname && url.hostname !== 'localhost')
    throw new CallFailure(
      'invalid_input',
      `"${p}" names a file on another computer (${url.hostname}): copy it here or mount its share, then give the path`,
    );
  try {
    return fileURLToPath(url);
  } catch (err) {
    throw new CallFailure('invalid_input', `"${p}" is not a file URL Circa can read: ${(err as Error).message}`);
  }
}
