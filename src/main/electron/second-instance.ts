/**
 * A second launch while Circa runs (often hidden in the tray). It is handed to the first instance,
 * which shows its window — but a launch that names another library (`--library OTHER` or
 * CIRCA_LIBRARY) must not silently show the old one. The second instance resolves the folder
 * itself (its own working directory and environment) and sends it as additionalData.
 */
import path from 'node:path';
import { resolveLibraryDir } from '../library/paths';

export interface SecondInstanceData {
  libraryDir: string | null;
  /** Folders or photos the launch was given ("Open with Circa"), resolved by that launch. */
  openPaths?: string[];
}

/** The library this launch asks for explicitly, or null (then it just wants the window). */
export function explicitLibraryDir(argv: readonly string[], env: NodeJS.ProcessEnv): string | null {
  const named = argv.some((a) => a === '--library' || a.startsWith('--library=')) || !!env.CIRCA_LIBRARY;
  if (!named) return null;
  try {
    return resolveLibraryDir({ argv, env });
  } catch {
    return null;
  }
}

/** Reads the additionalData a second instance sent (untrusted shape: another process wrote it). */
export function parseSecondInstanceData(data: unknown): SecondInstanceData {
  const dir = (data as { libraryDir?: unknown } | null)?.libraryDir;
  const open = (data as { openPaths?: unknown } | null)?.openPaths;
  const openPaths = Array.isArray(open)
    ? open.filter((p): p is string => typeof p === 'string' && p.length <= 4096 && path.isAbsolute(p)).slice(0, 1000)
    : [];
  return { libraryDir: typeof dir === 'string' && path.isAbsolute(dir) ? dir : null, openPaths };
}

export function sameFolder(a: string, b: string, platform: NodeJS.Platform = process.platform): boolean {
  const norm = (p: string) => {
    const r = path.resolve(p).replace(/[\\/]+$/, '');
    return platform === 'win32' || platform === 'darwin' ? r.toLowerCase() : r;
  };
  return norm(a) === norm(b);
}

export type SecondInstanceAction = { kind: 'show' } | { kind: 'offer-switch'; libraryDir: string };

export function secondInstanceAction(
  currentDir: string,
  request: SecondInstanceData,
  platform?: NodeJS.Platform,
): SecondInstanceAction {
  if (!request.libraryDir || sameFolder(currentDir, request.libraryDir, platform)) return { kind: 'show' };
  return { kind: 'offer-switch', libraryDir: request.libraryDir };
}
