/** A file's stamp (see `shared/jobs/file-stamp.ts`) taken from a Node `stat`, for main and the worker. */
import type { BigIntStats } from 'node:fs';
import type { FileStamp } from '../jobs/file-stamp';

/** The stamp of a `stat(…, { bigint: true })`. */
export function stampOf(st: BigIntStats): FileStamp {
  return {
    dev: String(st.dev),
    ino: String(st.ino),
    size: Number(st.size),
    mtimeNs: String(st.mtimeNs),
    ctimeNs: String(st.ctimeNs),
  };
}

/** A stat's modification time in ms as Node gives it without `bigint` (seconds × 1000 + ns / 10⁶). */
export function mtimeMsOf(st: BigIntStats): number {
  if (st.mtimeNs < 0n) return Number(st.mtimeNs) / 1e6;
  return Number(st.mtimeNs / 1_000_000_000n) * 1e3 + Number(st.mtimeNs % 1_000_000_000n) / 1e6;
}
