/**
 * The worker's half of `export`: one chunk of photos appended to the CSV and JSON files (under
 * their temporary names, first cut back to the length the last checkpoint recorded, so a resumed
 * step never writes a photo twice), XMP sidecars written one by one, and on the last step the
 * files closed, flushed and renamed into place.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { CSV_BOM, csvRow } from '../../shared/export/csv';
import {
  CSV_COLUMNS,
  EXPORT_SCHEMA_VERSION,
  csvCellsFor,
  toExportRecord,
  type ExportPhotoRow,
} from '../../shared/export/export-record';
import { xmpTagsFor } from '../../shared/export/xmp-tags';
import { PermanentJobError } from '../../shared/jobs/errors';
import type { ExportFile, ExportInput, ExportJobType, ExportOutput } from '../../shared/jobs/types/export';
import { fsyncPath } from '../../shared/node/backup-folder';
import { diskFullError, isAbortError, ranOutOfRoom } from '../../shared/node/io-errors';
import { sidecarNextTo, writeNewSidecars, writeSidecar } from '../export/xmp-sidecars';
import type { RunContext, RunHandler } from './types';

const JSON_TAIL = '\n]}\n';

export const exportHandler: RunHandler<ExportJobType> = async (input, ctx) => {
  try {
    return await exportStep(input, ctx);
  } catch (err) {
    throw await asDiskFull(input, err);
  }
};

/**
 * A write into the export folder that ran out of room ends the export for good (a retry frees no
 * space): its unfinished files are removed, and the archivist is told in plain words.
 */
async function asDiskFull(input: ExportInput, err: unknown): Promise<unknown> {
  const temps = [input.csv?.temp, input.json?.temp, input.xmp?.dir?.temp].filter((t): t is string => !!t);
  if (!temps.length || err instanceof PermanentJobError || isAbortError(err)) return err;
  const dir = path.dirname(temps[0]);
  if (!(await ranOutOfRoom(err, dir))) return err;
  await Promise.all(temps.map((t) => fs.rm(t, { recursive: true, force: true })));
  return diskFullError('the export', dir, 'folder', err);
}

const exportStep: RunHandler<ExportJobType> = async (input, ctx) => {
  const photos = input.photoChunks.flatMap((text) => JSON.parse(text) as ExportPhotoRow[]);
  const records = photos.map(toExportRecord);
  const out: ExportOutput = {
    written: records.length,
    lastId: records.at(-1)?.id ?? 0,
    csvBytes: input.resume.csvBytes,
    jsonBytes: input.resume.jsonBytes,
    jsonItems: input.resume.jsonItems,
    xmpWritten: 0,
    xmpFailures: [],
    finished: input.last,
    files: [],
  };
  if (input.csv) {
    const rows = records.map((r) => csvRow(csvCellsFor(r))).join('');
    out.csvBytes = await appendStep(input.csv, input.resume.csvBytes, CSV_BOM + csvRow(CSV_COLUMNS), rows);
  }
  if (input.json) {
    const head = `{"format":"circa-export","schemaVersion":${EXPORT_SCHEMA_VERSION},"exportedAt":${JSON.stringify(input.exportedAt)},"app":{"name":"Circa","version":${JSON.stringify(input.appVersion)}},"photos":[`;
    let body = '';
    for (const r of records) body += (out.jsonItems++ ? ',\n' : '\n') + JSON.stringify(r);
    out.jsonBytes = await appendStep(input.json, input.resume.jsonBytes, head, body);
  }
  if (input.xmp) await writeSidecars(input, photos, records, out, ctx);
  if (input.last) out.files = await finish(input);
  return out;
};

/** Appends `body` to the file as the checkpoint left it (a fresh file starts with `header`); returns its new length. */
async function appendStep(file: ExportFile, resumeBytes: number, header: string, body: string): Promise<number> {
  if (resumeBytes === 0) {
    await fs.writeFile(file.temp, header + body);
  } else {
    let size: number;
    try {
      size = (await fs.stat(file.temp)).size;
    } catch {
      throw new PermanentJobError(`The export's unfinished file ${file.temp} has disappeared; start the export again`);
    }
    if (size < resumeBytes)
      throw new PermanentJobError(`The export's unfinished file ${file.temp} was cut short; start the export again`);
    await fs.truncate(file.temp, resumeBytes);
    await fs.appendFile(file.temp, body);
  }
  return (await fs.stat(file.temp)).size;
}

/** Sidecars per ExifTool command into the export folder (between batches the job notices a cancel). */
const SIDECAR_BATCH = 50;

async function writeSidecars(
  input: ExportInput,
  photos: ExportPhotoRow[],
  records: ReturnType<typeof toExportRecord>[],
  out: ExportOutput,
  ctx: RunContext,
) {
  const xmp = input.xmp!;
  const report = (i: number) =>
    ctx.progress(Math.min(0.99, (input.progress.done + i) / Math.max(1, input.progress.total)), 'Writing XMP sidecars');
  if (xmp.dir) {
    // Into the export folder: new files, written in batches. A failure is the folder's (full, gone): the step is retried.
    const dir = xmp.dir.temp;
    await fs.mkdir(dir, { recursive: true });
    for (let i = 0; i < records.length; i += SIDECAR_BATCH) {
      ctx.signal.throwIfAborted();
      const batch = records.slice(i, i + SIDECAR_BATCH).map((r, k) => ({
        target: path.join(dir, photos[i + k].sidecarName),
        tags: xmpTagsFor(r),
      }));
      await writeNewSidecars(batch);
      out.xmpWritten += batch.length;
      report(i + batch.length);
    }
    return;
  }
  // Next to the originals: one at a time, updating what is there. A failure is one folder's
  // (read-only, moved): it is recorded and the export goes on.
  for (let i = 0; i < records.length; i++) {
    ctx.signal.throwIfAborted();
    const r = records[i];
    const target = sidecarNextTo(r.path);
    try {
      await writeSidecar(target, xmpTagsFor(r));
      out.xmpWritten++;
    } catch (err) {
      if (out.xmpFailures.length < 1000)
        out.xmpFailures.push({ photoId: r.id, message: `${target}: ${(err as Error).message}`.slice(0, 2000) });
    }
    if (i % 20 === 0) report(i);
  }
}

async function finish(input: ExportInput): Promise<string[]> {
  const files: string[] = [];
  if (input.json) await fs.appendFile(input.json.temp, JSON_TAIL);
  for (const file of [input.csv, input.json]) {
    if (!file) continue;
    await fsyncPath(file.temp);
    await fs.rename(file.temp, file.final);
    files.push(file.final);
  }
  const xmpDir = input.xmp?.dir;
  if (xmpDir) {
    // A step with no photos (an empty scope) never made the folder.
    await fs.mkdir(xmpDir.temp, { recursive: true });
    await fs.rename(xmpDir.temp, xmpDir.final);
    files.push(xmpDir.final);
  }
  return files;
}
