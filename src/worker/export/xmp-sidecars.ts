/**
 * XMP sidecars through ExifTool (exiftool-vendored: the vendored Perl ExifTool, run with
 * `-stay_open` so one process writes file after file). Each sidecar is written to a temporary
 * `….circa-partial.xmp` beside its target and renamed into place. Next to an original, an
 * existing sidecar (`photo.jpg.xmp`, or Lightroom's `photo.xmp`) is updated — copied first, so
 * the tags other tools wrote stay — and the original image itself is never opened for writing.
 */
import fs from 'node:fs/promises';
import { existsSync, writeFileSync } from 'node:fs';
import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { ExifTool } from 'exiftool-vendored';
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
  exiftool = new ExifTool({
    maxProcs: 1,
    // -config must come first: it defines Circa's namespace before anything is written.
    exiftoolArgs: ['-config', config, '-stay_open', 'True', '-@', '-'],
    taskTimeoutMillis: 60_000,
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
