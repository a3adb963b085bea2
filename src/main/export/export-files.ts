/**
 * The names an export writes in its folder: `circa-export-<local time>.csv|.json` and a folder of
 * sidecars, each written under a temporary name and renamed when the export is complete.
 */
import path from 'node:path';
import type { ExportFile } from '../../shared/jobs/types/export';

const pad = (n: number) => String(n).padStart(2, '0');

export function exportStamp(startedAt: number): string {
  const d = new Date(startedAt);
  return `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}-${pad(d.getHours())}${pad(d.getMinutes())}${pad(d.getSeconds())}`;
}

/** Temporary names carry the job id, so a retried first step finds (and restarts) its own files. */
export function exportFileNames(
  dir: string,
  startedAt: number,
  jobId: number,
): { csv: ExportFile; json: ExportFile; xmpDir: ExportFile } {
  const base = `circa-export-${exportStamp(startedAt)}`;
  const file = (ext: string): ExportFile => ({
    temp: path.join(dir, `.circa-export-job${jobId}.${ext}.partial`),
    final: path.join(dir, `${base}.${ext}`),
  });
  const xmpDir = { temp: path.join(dir, `.circa-export-job${jobId}.xmp.partial`), final: path.join(dir, `${base}-xmp`) };
  return { csv: file('csv'), json: file('json'), xmpDir };
}
