/**
 * Runs one of the packed app's own dependencies from the packed view (see packed-view.ts), in a
 * Node started with --preserve-symlinks so modules resolve by their path inside app.asar, as in
 * Electron. Prints one JSON line. Usage: node --preserve-symlinks packed-probe.mjs APP_ROOT WHAT [ARG]
 *   exiftool — exiftool-vendored's own path lookup, then `exiftool -ver` through its ExifTool
 *   sharp IMAGE — loads sharp, resizes IMAGE to 64 px wide, and lists the native files mapped
 */
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';

const [appRoot, what, arg] = process.argv.slice(2);
const requireFromApp = createRequire(path.join(appRoot, 'package.json'));

/** The native files this process has mapped, by real path (the kernel resolves symlinks). */
function mappedNativeFiles(pattern) {
  const lines = fs.readFileSync('/proc/self/maps', 'utf8').split('\n');
  const files = new Set();
  for (const line of lines) {
    const file = line.slice(line.indexOf('/'));
    if (line.includes('/') && pattern.test(path.basename(file))) files.add(file);
  }
  return [...files];
}

async function main() {
  if (what === 'exiftool') {
    const { ExifTool, exiftoolPath } = requireFromApp('exiftool-vendored');
    const file = await exiftoolPath();
    let ver = null;
    let error = null;
    try {
      ver = execFileSync(file, ['-ver'], { encoding: 'utf8', timeout: 30_000 }).trim();
    } catch (err) {
      error = err.message;
    }
    const et = new ExifTool({ maxProcs: 1, taskTimeoutMillis: 30_000 });
    let viaLibrary = null;
    try {
      viaLibrary = await et.version();
    } catch (err) {
      error = error ?? err.message;
    } finally {
      await et.end();
    }
    return { file, ver, viaLibrary, error };
  }
  if (what === 'sharp') {
    const sharp = requireFromApp('sharp');
    const { data, info } = await sharp(arg).resize({ width: 64 }).png().toBuffer({ resolveWithObject: true });
    const meta = await sharp(data).metadata();
    return {
      info: { width: info.width, height: info.height, format: info.format },
      decoded: { width: meta.width, height: meta.height },
      mapped: mappedNativeFiles(/sharp|vips/),
    };
  }
  throw new Error(`unknown probe ${what}`);
}

main().then(
  (out) => {
    process.stdout.write(`${JSON.stringify(out)}\n`);
  },
  (err) => {
    process.stdout.write(`${JSON.stringify({ error: err.stack ?? String(err) })}\n`);
    process.exitCode = 1;
  },
);
