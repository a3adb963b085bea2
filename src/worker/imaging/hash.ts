/**
 * SHA-256 of a file, streamed in 1 MiB chunks so memory stays flat for any file size, and
 * abortable through an AbortSignal (the read stream is destroyed at once).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { PermanentJobError } from '../../shared/jobs/errors';
import { fsReadError } from './io-errors';

export interface FileHash {
  /** Lowercase hex, 64 characters. */
  sha256: string;
  /** Bytes hashed. */
  size: number;
}

const CHUNK_BYTES = 1024 * 1024;

export async function sha256File(filePath: string, options: { signal?: AbortSignal } = {}): Promise<FileHash> {
  const { signal } = options;
  signal?.throwIfAborted();
  try {
    const st = await stat(filePath);
    if (!st.isFile()) throw new PermanentJobError(`Not a file: ${filePath} is not a regular file`);
    const hash = createHash('sha256');
    let size = 0;
    const stream = createReadStream(filePath, { highWaterMark: CHUNK_BYTES, signal });
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      hash.update(chunk);
      size += chunk.length;
    }
    return { sha256: hash.digest('hex'), size };
  } catch (err) {
    // An abort surfaces as an AbortError from the stream; keep the signal's reason when it has one.
    if (signal?.aborted) throw signal.reason ?? err;
    throw fsReadError(err, filePath);
  }
}

/** SHA-256 of bytes already in memory (lowercase hex). */
export function sha256Buffer(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
