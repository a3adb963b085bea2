/**
 * A library Circa cannot write, for the tests of what it does then. When the tests run as root
 * (whom permissions do not stop), the processes under test run as `nobody` (`asNobody`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { openTestCore, tempDir } from './core';

export const asNobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};

/** A library with one queued job, then made read-only: the whole folder, or just circa.db. */
export async function readOnlyLibrary(what: 'folder' | 'database'): Promise<string> {
  const parent = tempDir('circa-ro-');
  fs.chmodSync(parent, 0o755);
  const dir = path.join(parent, 'library');
  const core = openTestCore({ libraryDir: dir, runJobs: false });
  core.jobs.enqueue({ type: 'diag.sleep', payload: { ms: 0, key: 'ro' } });
  await core.close();
  const all = (p: string): string[] =>
    fs.statSync(p).isDirectory() ? [p, ...fs.readdirSync(p).flatMap((f) => all(path.join(p, f)))] : [p];
  for (const p of all(dir)) {
    const isDir = fs.statSync(p).isDirectory();
    if (what === 'folder') fs.chmodSync(p, isDir ? 0o555 : 0o444);
    else fs.chmodSync(p, isDir ? 0o777 : p.endsWith('circa.db') ? 0o444 : 0o666);
  }
  return dir;
}
