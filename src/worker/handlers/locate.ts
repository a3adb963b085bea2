/**
 * The worker's half of `locate`: walks the chosen file or folder (as an import walks it: hidden
 * files left out, links out of the folder not followed), hashes each file whose size is that of a
 * missing photo, and reports them with their SHA-256s; main says which are missing photos. Names
 * play no part: a renamed file is found, and a file with a missing photo's name but other content
 * is not.
 */
import fs from 'node:fs/promises';
import { hasSupportedExtension } from '../../shared/image-formats';
import { PermanentJobError } from '../../shared/jobs/errors';
import {
  LOCATE_LISTED_FILES,
  LOCATE_MAX_CANDIDATES,
  type LocateJobType,
  type LocateOutput,
} from '../../shared/jobs/types/locate';
import { walkImport } from '../../shared/node/file-walk';
import { sha256File } from '../../shared/node/hash';
import { errnoCode, isAbortError } from '../../shared/node/io-errors';
import type { RunHandler } from './types';

const ROOT_ERRORS: Record<string, string> = {
  ENOENT: 'it does not exist (any more)',
  ENOTDIR: 'a part of its path is not a folder',
  EACCES: 'Circa may not read it (permission denied)',
  EPERM: 'Circa may not read it (permission denied)',
};

export const locateHandler: RunHandler<LocateJobType> = async (input, ctx) => {
  const out: LocateOutput = { candidates: [], unmatched: 0, unmatchedFiles: [], unreadable: 0, unreadableFiles: [] };
  if (!input.sizes.length) return out;
  const sizes = new Set(input.sizes);
  let looked = 0;
  const missing = input.missing.toLocaleString('en');
  const report = () =>
    ctx.progress(
      // A guess (how much of the folder is left is not known): most files read turn out to be found.
      Math.min(0.99, out.candidates.length / Math.max(1, input.missing)),
      `Looked at ${looked.toLocaleString('en')} file${looked === 1 ? '' : 's'}; read ${out.candidates.length.toLocaleString('en')} with the size of a missing photo (${missing} missing)`,
    );
  const unreadable = (path: string, err: unknown) => {
    out.unreadable++;
    if (out.unreadableFiles.length < LOCATE_LISTED_FILES)
      out.unreadableFiles.push({ path, message: (err as Error)?.message ?? String(err) });
  };

  for await (const item of walkImport(input.path)) {
    ctx.signal.throwIfAborted();
    if (item.kind === 'error') {
      if (item.path !== input.path) unreadable(item.path, item.error);
      else
        throw new PermanentJobError(
          `Cannot look in ${input.path}: ${ROOT_ERRORS[errnoCode(item.error) ?? ''] ?? (item.error as Error).message}`,
        );
      continue;
    }
    if (item.kind === 'skip') {
      if (item.skip === 'system' && item.path === input.path)
        throw new PermanentJobError(`Cannot look in ${input.path}: it is ${item.reason}`);
      continue;
    }
    looked++;
    try {
      const { size } = await fs.stat(item.path);
      if (sizes.has(size)) {
        if (out.candidates.length === LOCATE_MAX_CANDIDATES)
          throw new PermanentJobError(
            `More than ${LOCATE_MAX_CANDIDATES.toLocaleString('en')} files in ${input.path} have the size of a missing photo; choose a folder inside it`,
          );
        const hash = await sha256File(item.path, { signal: ctx.signal });
        out.candidates.push({ sha256: hash.sha256, path: item.path, filename: item.name, mtimeMs: Math.round(hash.mtimeMs) });
      } else if (hasSupportedExtension(item.name)) {
        out.unmatched++;
        if (out.unmatchedFiles.length < LOCATE_LISTED_FILES) out.unmatchedFiles.push(item.path);
      }
    } catch (err) {
      if (isAbortError(err) || ctx.signal.aborted || err instanceof PermanentJobError) throw err;
      unreadable(item.path, err);
    }
    if (looked % 50 === 0) report();
  }
  report();
  return out;
};
