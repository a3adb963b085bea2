/**
 * SHA-256 of a file, read in 1 MiB chunks so memory stays flat for any file size, and abortable
 * through an AbortSignal (checked between chunks).
 *
 * `maxBytes` refuses a larger file from its size before one byte is read: a 2 GiB file named .jpg
 * is refused at once, not after all of it was hashed (and then refused by the metadata job).
 *
 * The chunks are read into buffers kept for reuse: the import hashes thousands of files in main,
 * and a fresh megabyte per chunk (what a read stream allocates) is garbage main then has to collect.
 */
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { PermanentJobError } from '../jobs/errors';
import { formatBytes } from '../format-bytes';
import { fsReadError } from './io-errors';
import { isSettled, sameStamp, type FileStamp } from '../jobs/file-stamp';
import { mtimeMsOf, stampOf } from './file-stamp-of';

export interface FileHash {
  /** Lowercase hex, 64 characters. */
  sha256: string;
  /** Bytes hashed. */
  size: number;
  /** The file's modification time when it was opened. */
  mtimeMs: number;
  /**
   * The file's stamp (see file-stamp.ts) when it is the same before and after the read and its
   * times were settled when it was opened; null otherwise (the bytes may be moving under us).
   */
  stamp: FileStamp | null;
}

const CHUNK_BYTES = 1024 * 1024;
/** Idle chunk buffers kept for the next file; as many as hashes usually run at once. */
const MAX_IDLE_BUFFERS = 4;
const idleBuffers: Buffer[] = [];

export async function sha256File(
  filePath: string,
  options: { signal?: AbortSignal; maxBytes?: number; settledAfterMs?: number } = {},
): Promise<FileHash> {
  const { signal, maxBytes, settledAfterMs } = options;
  signal?.throwIfAborted();
  let fh: Awaited<ReturnType<typeof open>> | undefined;
  const chunk = idleBuffers.pop() ?? Buffer.allocUnsafe(CHUNK_BYTES);
  try {
    fh = await open(filePath, 'r');
    const openedAt = Date.now();
    const st = await fh.stat({ bigint: true });
    if (!st.isFile()) throw new PermanentJobError(`Not a file: ${filePath} is not a regular file`);
    const stamp = stampOf(st);
    if (maxBytes !== undefined && stamp.size > maxBytes) throw fileTooLarge(stamp.size, maxBytes);
    const hash = createHash('sha256');
    let size = 0;
    // Read to the end of the file, not to st.size: a file still growing is hashed as it is read.
    for (;;) {
      signal?.throwIfAborted();
      const { bytesRead } = await fh.read(chunk, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      hash.update(chunk.subarray(0, bytesRead));
      size += bytesRead;
      // Grown past the limit while being read (still being written): stop reading it.
      if (maxBytes !== undefined && size > maxBytes) throw fileTooLarge(size, maxBytes);
    }
    const after = stampOf(await fh.stat({ bigint: true }));
    const steady = size === stamp.size && sameStamp(stamp, after) && isSettled(stamp, openedAt, settledAfterMs);
    return { sha256: hash.digest('hex'), size, mtimeMs: mtimeMsOf(st), stamp: steady ? stamp : null };
  } catch (err) {
    // An abort keeps the signal's reason (an AbortError by default), never a job error.
    if (signal?.aborted) throw signal.reason ?? err;
    throw fsReadError(err, filePath);
  } finally {
    await fh?.close().catch(() => undefined);
    if (idleBuffers.length < MAX_IDLE_BUFFERS) idleBuffers.push(chunk);
  }
}

/** The one wording for a file over a size limit (the import, the metadata and preview jobs). */
export function fileTooLarge(size: number, maxBytes: number): PermanentJobError {
  return new PermanentJobError(`File too large: ${formatBytes(size)} exceeds the ${formatBytes(maxBytes)} limit`);
}

/** SHA-256 of bytes already in memory (lowercase hex). */
export function sha256Buffer(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
