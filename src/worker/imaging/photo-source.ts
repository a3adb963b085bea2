/**
 * The metadata job's one read of a photo, and how it knows the bytes are still the ones imported.
 *
 * An ordinary file is read whole into memory, once; sharp, exifr and the hash use those bytes. A
 * file larger than `streamAboveBytes` (an archival TIFF of several hundred MB) is never held: only
 * its head is read here, the decoder and the EXIF reader read the path, and its hash is streamed.
 *
 * Identity: main hashed the file at import and recorded its stamp (src/shared/jobs/file-stamp.ts).
 * When the file's stamp before and after this read is that stamp, the bytes are the ones main
 * hashed and the recorded hash is the content hash (no second SHA-256). Otherwise — no stamp (a
 * re-read after a restart, a job from elsewhere), or any field moved — the bytes are hashed and
 * compared as before, so a changed file is caught either way.
 */
import type { BigIntStats } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { PermanentJobError } from '../../shared/jobs/errors';
import { sameStamp } from '../../shared/jobs/file-stamp';
import { stampOf } from '../../shared/node/file-stamp-of';
import type { MetadataInput } from '../../shared/jobs/types/metadata';
import { fileTooLarge, sha256Buffer, sha256File } from '../../shared/node/hash';
import { fsReadError } from '../../shared/node/io-errors';
import { readFileHead } from './file-head';

const READ_CHUNK_BYTES = 8 * 1024 * 1024;
/** What a streamed file has read into memory: enough for the format and almost every JPEG header. */
const STREAMED_HEAD_BYTES = 1024 * 1024;

type Expected = MetadataInput['expected'];

/**
 * The photo's bytes as the job uses them: all of them for an ordinary file; for a streamed one,
 * its first MiB, with the decoder and EXIF reader given the path and the hash computed by reading.
 */
export interface PhotoSource {
  size: number;
  /** The whole file, or its first bytes when streamed. */
  head: Buffer;
  /** What sharp and exifr read: the bytes themselves, or the path of a streamed file. */
  input: Buffer | string;
  /** The content's SHA-256: the one recorded at import when the stamp held, else computed. */
  sha256(): Promise<string>;
  /** Streamed only: throws (transient) when the file changed since it was opened. */
  unchanged(): Promise<void>;
}

const ignore = () => undefined;

export async function openPhotoSource(
  filePath: string,
  expected: Expected,
  maxFileBytes: number,
  streamAboveBytes: number,
  signal: AbortSignal | undefined,
): Promise<PhotoSource> {
  const st = await checkedStat(filePath, expected?.size ?? null, maxFileBytes);
  const recorded = expected?.stamp && expected.stamp.size === Number(st.size) ? expected : null;
  if (st.size <= streamAboveBytes) {
    const { bytes, stampHeld } = await readPhotoFile(filePath, expected?.size ?? null, maxFileBytes, recorded, signal);
    const sha256 = stampHeld && recorded ? recorded.sha256.toLowerCase() : null;
    return {
      size: bytes.length,
      head: bytes,
      input: bytes,
      sha256: async () => sha256 ?? sha256Buffer(bytes),
      unchanged: async () => {},
    };
  }
  const held = recorded?.stamp && sameStamp(stampOf(st), recorded.stamp) ? recorded : null;
  const head = await readFileHead(filePath, STREAMED_HEAD_BYTES);
  const hashed = held ? null : sha256File(filePath, { signal, maxBytes: maxFileBytes });
  hashed?.catch(ignore);
  return {
    size: Number(st.size),
    head,
    input: filePath,
    sha256: async () => {
      if (held) return held.sha256.toLowerCase();
      const h = await hashed!;
      if (h.size !== Number(st.size)) throw new Error(`File changed while being read: ${st.size} bytes expected, ${h.size} read`);
      return h.sha256;
    },
    unchanged: async () => {
      const now = await stat(filePath, { bigint: true }).catch((err: unknown) => {
        throw fsReadError(err, filePath);
      });
      // With the stamp held, nothing but the stamp proves the bytes: all of it must still hold.
      const moved = held ? !sameStamp(stampOf(now), held.stamp!) : now.size !== st.size || now.mtimeNs !== st.mtimeNs;
      if (moved) {
        throw new Error('File changed while being read: its size or modification time moved; it is probably still being written');
      }
    },
  };
}

/** The file's size, checked against the import record and the limit before anything is read. */
async function checkedStat(filePath: string, expectedSize: number | null, maxFileBytes: number) {
  let st;
  try {
    st = await stat(filePath, { bigint: true });
  } catch (err) {
    throw fsReadError(err, filePath);
  }
  checkFile(st, filePath, expectedSize, maxFileBytes);
  return st;
}

/** A regular file of the size recorded at import, not empty, within the limit; returns its size. */
function checkFile(st: BigIntStats, filePath: string, expectedSize: number | null, maxFileBytes: number): number {
  if (!st.isFile()) throw new PermanentJobError(`Not a file: ${filePath} is not a regular file`);
  const size = Number(st.size);
  if (expectedSize !== null && size !== expectedSize) {
    throw new PermanentJobError(`File changed since import: size ${size} ≠ ${expectedSize} bytes recorded at import`);
  }
  if (size === 0) throw new PermanentJobError('File is empty (0 bytes)');
  if (size > maxFileBytes) throw fileTooLarge(size, maxFileBytes);
  return size;
}

/**
 * Read the whole file, refusing it before reading when it is empty or too large, and checking the
 * size against the import record first (a changed file is reported as changed, not as "empty").
 * `stampHeld`: the file's stamp was the recorded one both before and after the read.
 */
async function readPhotoFile(
  filePath: string,
  expectedSize: number | null,
  maxFileBytes: number,
  recorded: Expected,
  signal: AbortSignal | undefined,
): Promise<{ bytes: Buffer; stampHeld: boolean }> {
  let fh: Awaited<ReturnType<typeof open>>;
  try {
    fh = await open(filePath, 'r');
  } catch (err) {
    throw fsReadError(err, filePath);
  }
  try {
    const st = await fh.stat({ bigint: true });
    const size = checkFile(st, filePath, expectedSize, maxFileBytes);
    // One byte more than the file: reading it tells a file that grew while we read, with no
    // extra read call.
    const buf = Buffer.allocUnsafe(size + 1);
    let offset = 0;
    while (offset <= size) {
      signal?.throwIfAborted();
      const { bytesRead } = await fh.read(buf, offset, Math.min(READ_CHUNK_BYTES, size + 1 - offset), offset);
      if (bytesRead === 0) break;
      offset += bytesRead;
    }
    // Shrunk or grown while we read: probably still being written or synced. Transient.
    if (offset < size) throw new Error(`File changed while being read: ${size} bytes expected, ${offset} read`);
    if (offset > size) throw new Error(`File changed while being read: it grew beyond ${size} bytes`);
    const stamp = recorded?.stamp;
    const stampHeld =
      stamp !== undefined && sameStamp(stampOf(st), stamp) && sameStamp(stampOf(await fh.stat({ bigint: true })), stamp);
    return { bytes: buf.subarray(0, size), stampHeld };
  } catch (err) {
    throw fsReadError(err, filePath);
  } finally {
    await fh.close().catch(() => undefined);
  }
}
