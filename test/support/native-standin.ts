/**
 * Stand-ins for Electron's better-sqlite3 build, which this machine cannot download or compile
 * (no internet for Electron's headers). The real Node build is a real ELF/Mach-O/PE addon; with
 * its registration symbol rewritten it carries another ABI number, exactly as a build for that
 * ABI would. Used to exercise the ABI checks and the packaged layout, never loaded.
 */
import fs from 'node:fs';
import path from 'node:path';
import { appPaths } from '../../src/main/app-paths';

export const nodeBuild = path.join(appPaths().root, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');

export function electronAbiOnDisk(): number {
  return Number(fs.readFileSync(path.join(appPaths().root, 'node_modules', 'electron', 'abi_version'), 'utf8').trim());
}

/** Writes a copy of the Node build whose registration symbol says `abi` (same digit count as Node's). */
export function writeAbiStandIn(file: string, abi: number): void {
  const from = Buffer.from(`node_register_module_v${process.versions.modules}`, 'latin1');
  const to = Buffer.from(`node_register_module_v${abi}`, 'latin1');
  if (from.length !== to.length) throw new Error(`cannot stand in ABI ${abi} for ${process.versions.modules}`);
  const bytes = fs.readFileSync(nodeBuild);
  let at = bytes.indexOf(from);
  if (at < 0) throw new Error('the Node build has no registration symbol');
  while (at >= 0) {
    to.copy(bytes, at);
    at = bytes.indexOf(from, at + 1);
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, bytes);
}
