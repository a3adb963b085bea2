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

export interface FileHash {
  /** Lowercase hex, 64 characters. */
  sha256: string;
  /** Bytes hashed. */
  size: number;
  /** The file's modification time when it was opened. */
  mtimeMs: number;
}

const CHUNK_BYTES = 1024 * 1024;
/** Idle chunk buffers kept for the next file; as many as hashes usually run at once. */
const MAX_IDLE_BUFFERS = 4;
const idleBuffers: Buffer[] = [];

export async function sha256File(filePath: string, options: { signal?: AbortSignal; maxBytes?: number } = {}): Promise<FileHash> {
  const { signal, maxBytes } = options;
  signal?.throwIfAborted();
  let fh: Awaited<ReturnType<typeof open>> | undefined;
  const chunk = idleBuffers.pop() ?? Buffer.allocUnsafe(CHUNK_BYTES);
  try {
    fh = await open(filePath, 'r');
    const st = await fh.stat();
    if (!st.isFile()) throw new PermanentJobError(`Not a file: ${filePath} is not a regular file`);
    if (maxBytes !== undefined && st.size > maxBytes) throw fileTooLarge(st.size, maxBytes);
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
    return { sha256: hash.digest('hex'), size, mtimeMs: st.mtimeMs };
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
