/**
 * Main's half of `locate` (see src/shared/jobs/types/locate.ts), and the check of the place the
 * archivist chose. `load` hands the worker the missing photos' sizes (read in slices, see
 * FileLocations.missingSizes); `apply` looks up each file the worker read by its SHA-256,
 * relinks each missing photo found, with its audit entry, in the transaction that ends the job,
 * queues a new reading of those whose metadata had failed for want of the file, and says what
 * came of it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { hasSupportedExtension } from '../../shared/image-formats';
import { PermanentJobError } from '../../shared/jobs/errors';
import { LOCATE_LISTED_FILES, type LocateJobType } from '../../shared/jobs/types/locate';
import { errnoCode } from '../../shared/node/io-errors';
import { isPseudoFileSystem, SYSTEM_FOLDER_REASON } from '../../shared/node/file-walk';
import { CallFailure } from '../../shared/result';
import type { MainHalf } from '../jobs/registry';
import type { FileLocations } from './file-locations';

export interface LocateJobDeps {
  locations: FileLocations;
  /** In tx: queue the metadata job of photos relinked after their reading had failed. */
  reread(photoIds: number[]): void;
  onPhotosChanged(ids: number[]): void;
  /** After the commit: photos were relinked (their jobs waiting for the file can run). */
  onRelinked?(ids: number[]): void;
}

const n = (x: number) => x.toLocaleString('en');
const photos = (x: number) => `${n(x)} photo${x === 1 ? '' : 's'}`;
const files = (x: number) => `${n(x)} file${x === 1 ? '' : 's'}`;

/**
 * Where the archivist said to look, as main checks it before a job is queued: an existing file or
 * folder that Circa may read, and not a system folder. Throws a CallFailure that says which.
 */
export async function checkLocatePlace(place: string): Promise<{ path: string; kind: 'file' | 'folder' }> {
  const resolved = path.resolve(place);
  let st: fs.Stats;
  try {
    st = await fs.promises.stat(resolved);
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR')
      throw new CallFailure('not_found', `"${resolved}" does not exist on this computer`);
    if (code === 'EACCES' || code === 'EPERM')
      throw new CallFailure('invalid_input', `Circa may not read "${resolved}" (permission denied)`);
    throw new CallFailure('invalid_input', `"${resolved}" cannot be read: ${(err as Error).message}`);
  }
  if (!st.isFile() && !st.isDirectory()) throw new CallFailure('invalid_input', `"${resolved}" is neither a file nor a folder`);
  if (await isPseudoFileSystem(await fs.promises.realpath(resolved)))
    throw new CallFailure('invalid_input', `Circa does not look in "${resolved}": it is ${SYSTEM_FOLDER_REASON}`);
  try {
    if (st.isDirectory()) await (await fs.promises.opendir(resolved)).close();
    else await fs.promises.access(resolved, fs.constants.R_OK);
  } catch {
    throw new CallFailure(
      'invalid_input',
      `Circa may not read the ${st.isDirectory() ? 'folder' : 'file'} "${resolved}" (permission denied)`,
    );
  }
  return { path: resolved, kind: st.isDirectory() ? 'folder' : 'file' };
}

export function locateJob(deps: LocateJobDeps): MainHalf<LocateJobType> {
  const { locations } = deps;
  return {
    async load({ payload }, { signal }) {
      if (!fs.existsSync(payload.path))
        throw new PermanentJobError(`Cannot look in ${payload.path}: it does not exist (any more)`);
      return { path: payload.path, ...(await locations.missingSizes(signal)) };
    },
    apply(output, job) {
      const now = Date.now();
      const relinked: number[] = [];
      const reread: number[] = [];
      let { unmatched } = output;
      const unmatchedFiles = [...output.unmatchedFiles];
      // The first file with a missing photo's content is that photo; later copies are neither found nor unmatched.
      const found = new Set<string>();
      for (const file of output.candidates) {
        if (found.has(file.sha256)) continue;
        const r = locations.relinkMarkedMissing(file, now, { jobId: job.id });
        if (r === undefined) {
          if (!hasSupportedExtension(file.filename)) continue;
          unmatched++;
          if (unmatchedFiles.length < LOCATE_LISTED_FILES) unmatchedFiles.push(file.path);
          continue;
        }
        found.add(file.sha256);
        if (!r) continue;
        relinked.push(r.id);
        if (r.reread) reread.push(r.id);
      }
      if (reread.length) deps.reread(reread);
      if (relinked.length) deps.onPhotosChanged(relinked);
      if (relinked.length && deps.onRelinked) setImmediate(() => deps.onRelinked!(relinked));

      const p = job.payload;
      const still = p.photoIds ? locations.missingAmong(p.photoIds) : locations.missingCount(p.folder);
      const parts = [
        relinked.length ? `Relinked ${photos(relinked.length)} found in ${p.path}` : `No missing photo was found in ${p.path}`,
        still ? `${photos(still)} still missing` : p.photoIds || p.folder ? 'none still missing' : 'no photo is missing now',
      ];
      if (unmatched) {
        const named = unmatchedFiles.map((f) => path.basename(f)).join(', ');
        const more = unmatched > unmatchedFiles.length ? ', …' : '';
        parts.push(`${files(unmatched)} there matched no missing photo (${named}${more})`);
      }
      if (output.unreadable)
        parts.push(
          `${files(output.unreadable)} could not be read (${output.unreadableFiles[0]?.path ?? ''}: ${output.unreadableFiles[0]?.message ?? ''})`,
        );
      return `${parts.join('; ')}.`;
    },
  };
}
