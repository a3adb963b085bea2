/**
 * XMP sidecars through ExifTool (exiftool-vendored: the vendored Perl ExifTool, run with
 * `-stay_open` so one process writes file after file). Each sidecar is written to a temporary
 * `….circa-partial.xmp` beside its target and renamed into place.
 *
 * Into the export folder, sidecars are new files: many are written per ExifTool command (an
 * argument file with one `-execute1` group per sidecar), so the per-command cost of the
 * round trip through exiftool-vendored is paid once per batch rather than once per photo.
 * Next to an original, an existing sidecar (`photo.jpg.xmp`, or Lightroom's `photo.xmp`) is
 * updated one at a time — copied first, so the tags other tools wrote stay — and the original
 * image itself is never opened for writing.
 */
import fs from 'node:fs/promises';
import { existsSync, writeFileSync } from 'node:fs';
import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { ExifTool, ExifToolTask, exiftoolPath } from 'exiftool-vendored';
import { spawnTiedToThisProcess } from './exiftool-watchdog';
import { CIRCA_EXIFTOOL_CONFIG, CIRCA_XMP_NAMESPACE, type XmpTags } from '../../shared/export/xmp-tags';

let exiftool: ExifTool | null = null;

/** One ExifTool process per worker, started on the first sidecar and kept for the next ones. */
export function sidecarExifTool(): ExifTool {
  if (exiftool) return exiftool;
  const config = path.join(
    os.tmpdir(),
    `circa-exiftool-${crypto.createHash('sha256').update(CIRCA_EXIFTOOL_CONFIG).digest('hex').slice(0, 12)}.config`,
  );
  if (!existsSync(config)) writeFileSync(config, CIRCA_EXIFTOOL_CONFIG);
  // -config must come first: it defines Circa's namespace before anything is written.
  const args = ['-config', config, '-stay_open', 'True', '-@', '-'];
  exiftool = new ExifTool({
    maxProcs: 1,
    exiftoolArgs: args,
    // Ended by a watchdog when this worker dies, instead of running on orphaned.
    processFactory: async () =>
      existsSync('/usr/bin/perl') || process.platform === 'win32'
        ? spawnTiedToThisProcess(await exiftoolPath(), args, { stdio: 'pipe', env: { ...process.env, LANG: 'C' } })
        : spawnTiedToThisProcess('perl', [await exiftoolPath(), ...args], { stdio: 'pipe', env: { ...process.env, LANG: 'C' } }),
    taskTimeoutMillis: 60_000,
    // A process is retired after this many files (the default 500 means a restart, ~1 s, per 500 sidecars).
    maxTasksPerProcess: 20_000,
    // Tags are named with their group (XMP-photoshop:DateCreated): no MWG composite mapping needed.
    useMWG: false,
  });
  return exiftool;
}

/** The sidecar to write next to an original: an existing one (digiKam's photo.jpg.xmp, Lightroom's photo.xmp) or photo.jpg.xmp. */
export function sidecarNextTo(original: string): string {
  const withExt = `${original}.xmp`;
  const withoutExt = path.join(path.dirname(original), `${path.basename(original, path.extname(original))}.xmp`);
  if (existsSync(withExt)) return withExt;
  if (existsSync(withoutExt)) return withoutExt;
  return withExt;
}

export async function writeSidecar(target: string, tags: XmpTags): Promise<void> {
  const temp = path.join(path.dirname(target), `.${path.basename(target, '.xmp')}.circa-partial.xmp`);
  await fs.rm(temp, { force: true });
  let existing: string | null = null;
  try {
    existing = await fs.readFile(target, 'utf8');
    await fs.copyFile(target, temp);
  } catch {
    /* a new sidecar */
  }
  // A field Circa cannot fill is removed only from a sidecar Circa wrote before; another tool's value stays.
  const ours = existing === null || existing.includes(CIRCA_XMP_NAMESPACE);
  const write = Object.fromEntries(Object.entries(tags).filter(([, v]) => v !== null || (ours && existing !== null)));
  try {
    await sidecarExifTool().write(temp, write, { writeArgs: ['-overwrite_original'] });
    await fs.rename(temp, target);
  } catch (err) {
    await fs.rm(temp, { force: true });
    throw err;
  }
}

/** ExifTool's -E: values are HTML-encoded, so a newline in a note can never start another argument. */
const encodeValue = (v: string) =>
  v.replaceAll('&', '&amp;').replaceAll('\r', '&#13;').replaceAll('\n', '&#10;').replaceAll('\0', '');

/** One ExifTool command that writes several sidecars (an argument file; `-execute1` between them prints `{ready1}`, not the `{ready}` that ends the command). */
class BatchWriteTask extends ExifToolTask<number> {
  constructor(argFile: string) {
    super(['-@', argFile]);
  }
  protected parse(stdout: string, error?: Error): number {
    if (error) throw error;
    return (stdout.match(/\d+ image files? created/g) ?? []).length;
  }
}

/** Writes new sidecars (`targets[i]` gets `tags[i]`), each under a temporary name and then renamed. */
export async function writeNewSidecars(items: { target: string; tags: XmpTags }[]): Promise<void> {
  if (!items.length) return;
  const temps = items.map(({ target }) => path.join(path.dirname(target), `.${path.basename(target, '.xmp')}.circa-partial.xmp`));
  await Promise.all(temps.map((t) => fs.rm(t, { force: true })));
  const lines: string[] = [];
  items.forEach(({ tags }, i) => {
    lines.push('-charset', 'filename=utf8', '-E');
    for (const [tag, value] of Object.entries(tags)) {
      if (value === null) continue;
      for (const v of Array.isArray(value) ? value : [value]) lines.push(`-${tag}=${encodeValue(v)}`);
    }
    lines.push(temps[i], '-execute1');
  });
  lines.pop(); // the command's own -execute ends the last group
  const argFile = path.join(os.tmpdir(), `circa-sidecars-${process.pid}-${crypto.randomUUID()}.args`);
  await fs.writeFile(argFile, lines.join('\n') + '\n');
  try {
    const written = await sidecarExifTool().enqueueTask(() => new BatchWriteTask(argFile), false);
    if (written !== items.length) throw new Error(`ExifTool wrote ${written} of ${items.length} sidecars`);
    await Promise.all(items.map(({ target }, i) => fs.rename(temps[i], target)));
  } catch (err) {
    await Promise.all(temps.map((t) => fs.rm(t, { force: true })));
    throw err;
  } finally {
    await fs.rm(argFile, { force: true });
  }
}
