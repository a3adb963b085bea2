/**
 * Main's half of `export`: each step reads the next photos (with all their evidence) in short
 * slices, asynchronously (see STEP_PHOTOS), and hands them to the worker, which writes the files;
 * `apply` checkpoints where to go on. See src/shared/jobs/types/export.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { PermanentJobError } from '../../shared/jobs/errors';
import type { ExportEvidenceRow, ExportPhotoRow } from '../../shared/export/export-record';
import type { ExportCursor, ExportJobType, ExportScope } from '../../shared/jobs/types/export';
import type { PayloadOf } from '../../shared/jobs/define';
import { diskFullError, errnoCode, isDiskFull } from '../../shared/node/io-errors';
import type { MainHalf } from '../jobs/registry';
import { photoWhere } from '../catalogue/photo-listing';
import { APP_VERSION } from '../app-version';
import { exportFileNames } from './export-files';

/**
 * A step hands the worker up to STEP_PHOTOS photos, read in slices that each take about
 * SLICE_TARGET_MS of main's thread (the slice size adapts to the machine), with the event loop
 * free between slices; each slice is handed over as JSON text, so the hand-over itself is a copy,
 * not a serialisation of thousands of objects. See `npm run bench -- export`.
 */
export const STEP_PHOTOS = 2000;
export const FIRST_SLICE_PHOTOS = 100;
const SLICE_TARGET_MS = 4;
const SLICE_PHOTOS_MIN = 20;
const SLICE_PHOTOS_MAX = 1000;

type Payload = PayloadOf<ExportJobType>;

const PHOTO_COLUMNS = `id, path, filename, sha256, size, format, width, height, orientation, camera, exif_date, is_scan, missing,
  metadata_status, notes, exif, estimate_status, estimate, imported_at`;

const EVIDENCE_COLUMNS = `id, photo_id, source, kind, earliest, latest, precision, confidence, summary, details, job_id, attempt,
  review_status, review_note, superseded_at, created_at, updated_at`;

export function exportJob(deps: { sqlite: Database.Database }): MainHalf<ExportJobType> {
  const { sqlite } = deps;
  const evidenceBetween = sqlite.prepare(
    `SELECT ${EVIDENCE_COLUMNS} FROM evidence WHERE photo_id BETWEEN ? AND ? ORDER BY photo_id`,
  );

  /** All evidence of the chunk's photos: by id range when they are dense (the whole library), else by id. */
  const evidenceOf = (rows: { id: number }[]): (ExportEvidenceRow & { photo_id: number })[] => {
    if (!rows.length) return [];
    const [first, last] = [rows[0].id, rows[rows.length - 1].id];
    if (last - first < rows.length * 4) return evidenceBetween.all(first, last) as (ExportEvidenceRow & { photo_id: number })[];
    return sqlite
      .prepare(`SELECT ${EVIDENCE_COLUMNS} FROM evidence WHERE photo_id IN (${rows.map(() => '?').join(',')}) ORDER BY photo_id`)
      .all(...rows.map((r) => r.id)) as (ExportEvidenceRow & { photo_id: number })[];
  };

  /** The scope as SQL, continuing after `afterId`, in id order. */
  const chunk = (scope: ExportScope, afterId: number, limit: number): Omit<ExportPhotoRow, 'evidence' | 'sidecarName'>[] => {
    if (scope.kind === 'ids') {
      const wanted = [...new Set(scope.ids)]
        .filter((id) => id > afterId)
        .sort((a, b) => a - b)
        .slice(0, limit);
      if (!wanted.length) return [];
      return sqlite
        .prepare(`SELECT ${PHOTO_COLUMNS} FROM photos WHERE id IN (${wanted.map(() => '?').join(',')}) ORDER BY id`)
        .all(...wanted) as ExportPhotoRow[];
    }
    const { where, args } = scope.kind === 'all' ? { where: ['1'], args: [] } : photoWhere(scope);
    return sqlite
      .prepare(`SELECT ${PHOTO_COLUMNS} FROM photos WHERE ${where.join(' AND ')} AND id > ? ORDER BY id LIMIT ?`)
      .all(...args, afterId, limit) as ExportPhotoRow[];
  };

  const total = (scope: ExportScope): number => {
    if (scope.kind === 'ids') return new Set(scope.ids).size;
    const { where, args } = scope.kind === 'all' ? { where: ['1'], args: [] } : photoWhere(scope);
    return sqlite
      .prepare(`SELECT count(*) FROM photos WHERE ${where.join(' AND ')}`)
      .pluck()
      .get(...args) as number;
  };

  /** Sidecar names: `<filename>.xmp`, or `<stem> (<id>).<ext>.xmp` when another photo in the library has that filename. */
  const sidecarNames = (rows: { id: number; filename: string }[]): Map<number, string> => {
    const names = [...new Set(rows.map((r) => r.filename))];
    const shared = new Set(
      names.length
        ? (sqlite
            .prepare(
              `SELECT filename FROM photos WHERE filename IN (${names.map(() => '?').join(',')}) GROUP BY filename HAVING count(*) > 1`,
            )
            .pluck()
            .all(...names) as string[])
        : [],
    );
    return new Map(
      rows.map((r) => {
        // A control character (a newline is legal in a Linux file name) could never be passed to ExifTool.
        // eslint-disable-next-line no-control-regex
        const filename = r.filename.replace(/[\u0000-\u001f\u007f]/g, '_');
        if (!shared.has(r.filename)) return [r.id, `${filename}.xmp`];
        const ext = path.extname(filename);
        return [r.id, `${path.basename(filename, ext)} (${r.id})${ext}.xmp`];
      }),
    );
  };

  let slicePhotos = FIRST_SLICE_PHOTOS;

  /** One slice: photos after `afterId` with all their evidence, as the JSON the worker reads. */
  const slice = (payload: Payload, afterId: number, limit: number): { json: string; count: number; lastId: number } => {
    const started = performance.now();
    const rows = chunk(payload.scope, afterId, limit);
    const byPhoto = new Map<number, ExportEvidenceRow[]>(rows.map((r) => [r.id, []]));
    for (const e of evidenceOf(rows)) byPhoto.get(e.photo_id)?.push(e);
    const names = payload.formats.includes('xmp') ? sidecarNames(rows) : new Map<number, string>();
    const json = JSON.stringify(rows.map((r) => ({ ...r, evidence: byPhoto.get(r.id)!, sidecarName: names.get(r.id) ?? '' })));
    const scale = Math.max(0.5, Math.min(2, SLICE_TARGET_MS / Math.max(0.1, performance.now() - started)));
    slicePhotos = Math.round(Math.max(SLICE_PHOTOS_MIN, Math.min(SLICE_PHOTOS_MAX, limit * scale)));
    return { json, count: rows.length, lastId: rows.at(-1)?.id ?? afterId };
  };

  interface Step {
    photoChunks: string[];
    afterId: number;
    last: boolean;
  }

  /** Up to STEP_PHOTOS photos after `afterId`, read slice by slice with the event loop free between slices. */
  const readStep = async (payload: Payload, afterId: number, signal?: AbortSignal): Promise<Step> => {
    const photoChunks: string[] = [];
    let count = 0;
    while (count < STEP_PHOTOS) {
      signal?.throwIfAborted();
      const limit = Math.min(slicePhotos, STEP_PHOTOS - count);
      const s = slice(payload, afterId, limit);
      if (s.count) photoChunks.push(s.json);
      count += s.count;
      afterId = s.lastId;
      if (s.count < limit) return { photoChunks, afterId, last: true };
      await new Promise((resolve) => setImmediate(resolve));
    }
    return { photoChunks, afterId, last: false };
  };

  /**
   * The next step, read while the worker writes this one (main's reading and the worker's writing
   * overlap instead of taking turns). Kept for the job's next load; dropped when that load is for
   * another cursor (a retried step) and, for an export that ends otherwise, by the next read ahead.
   */
  const ahead = new Map<number, { afterId: number; step: Promise<Step | null> }>();
  const readAhead = (id: number, payload: Payload, afterId: number) => {
    for (const key of ahead.keys()) if (ahead.size >= 2) ahead.delete(key);
    const step = new Promise((resolve) => setImmediate(resolve)).then(() => readStep(payload, afterId)).catch(() => null);
    ahead.set(id, { afterId, step });
  };

  return {
    async load({ id, payload }, main) {
      const cursor: ExportCursor = payload.cursor ?? {
        afterId: 0,
        done: 0,
        total: total(payload.scope),
        startedAt: Date.now(),
        csvBytes: 0,
        jsonBytes: 0,
        jsonItems: 0,
        xmpWritten: 0,
        xmpFailed: 0,
      };
      if (!payload.cursor) prepareFolder(payload.destination, id);
      // The step read ahead while the worker wrote the previous one, if it is for this cursor.
      const early = ahead.get(id);
      ahead.delete(id);
      const step =
        (early?.afterId === cursor.afterId ? await early.step : null) ?? (await readStep(payload, cursor.afterId, main.signal));
      if (!step.last) readAhead(id, payload, step.afterId);
      const { photoChunks, last } = step;
      const files = exportFileNames(payload.destination, cursor.startedAt, id);
      return {
        csv: payload.formats.includes('csv') ? files.csv : null,
        json: payload.formats.includes('json') ? files.json : null,
        xmp: payload.formats.includes('xmp')
          ? { dir: payload.sidecarsNextToOriginals ? null : files.xmpDir, nextToOriginals: payload.sidecarsNextToOriginals }
          : null,
        resume: { csvBytes: cursor.csvBytes, jsonBytes: cursor.jsonBytes, jsonItems: cursor.jsonItems },
        photoChunks,
        last,
        exportedAt: new Date(cursor.startedAt).toISOString(),
        appVersion: APP_VERSION,
        progress: { done: cursor.done, total: cursor.total },
      };
    },
    apply(out, job) {
      const p: Payload = job.payload;
      const before = p.cursor;
      const done = (before?.done ?? 0) + out.written;
      const total = before?.total ?? done;
      const cursor: ExportCursor = {
        afterId: out.lastId || before?.afterId || 0,
        done,
        total: Math.max(total, done),
        startedAt: before?.startedAt ?? Date.now(),
        csvBytes: out.csvBytes,
        jsonBytes: out.jsonBytes,
        jsonItems: out.jsonItems,
        xmpWritten: (before?.xmpWritten ?? 0) + out.xmpWritten,
        xmpFailed: (before?.xmpFailed ?? 0) + out.xmpFailures.length,
      };
      if (!out.finished) {
        return {
          summary: `${done.toLocaleString('en')} of ${cursor.total.toLocaleString('en')} photos exported`,
          progress: cursor.total ? Math.min(0.99, done / cursor.total) : 0,
          continueWith: { ...p, cursor },
        };
      }
      const sidecars = p.formats.includes('xmp')
        ? `; ${cursor.xmpWritten.toLocaleString('en')} XMP sidecar${cursor.xmpWritten === 1 ? '' : 's'}${p.sidecarsNextToOriginals ? ' next to the originals' : ''}` +
          (cursor.xmpFailed
            ? ` (${cursor.xmpFailed} could not be written: ${out.xmpFailures[0]?.message ?? 'see earlier steps'})`
            : '')
        : '';
      const written = out.files.length ? ` to ${out.files.map((f) => path.basename(f)).join(', ')} in ${p.destination}` : '';
      return `Exported ${done.toLocaleString('en')} photo${done === 1 ? '' : 's'}${written}${sidecars}`;
    },
  };
}

/**
 * The export folder exists (created when only its last part is missing) and may be written. What
 * an earlier export into it left unfinished (cancelled, failed) is removed: one export per folder
 * runs at a time, so no other job is writing those files.
 */
function prepareFolder(dir: string, jobId: number): void {
  try {
    if (!fs.existsSync(dir) && fs.existsSync(path.dirname(dir))) fs.mkdirSync(dir);
    if (!fs.statSync(dir).isDirectory()) throw new PermanentJobError(`The export folder ${dir} is not a folder`);
    fs.accessSync(dir, fs.constants.W_OK);
    for (const name of fs.readdirSync(dir)) {
      if (/^\.circa-export-job\d+\..+\.partial$/.test(name) && !name.startsWith(`.circa-export-job${jobId}.`))
        fs.rmSync(path.join(dir, name), { force: true, recursive: true });
    }
  } catch (err) {
    if (err instanceof PermanentJobError) throw err;
    if (isDiskFull(err)) throw diskFullError('the export', dir, 'folder', err);
    const code = errnoCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new PermanentJobError(`The export folder ${dir} does not exist`);
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
      throw new PermanentJobError(`Circa may not write to the export folder ${dir}`);
    throw err;
  }
}
