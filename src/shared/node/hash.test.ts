import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, open, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermanentJobError } from '../jobs/errors';
import { sha256Buffer, sha256File } from './hash';
import { stampOf } from './file-stamp-of';
import { fsReadError } from './io-errors';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const corpus = path.resolve(repoRoot, '../shared/corpus/exif-samples');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'circa-hash-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('sha256File', () => {
  it('matches a one-shot hash of a corpus file', async () => {
    const file = path.join(corpus, 'jpg/Canon_40D.jpg');
    const bytes = await readFile(file);
    const result = await sha256File(file);
    expect(result).toEqual({
      sha256: createHash('sha256').update(bytes).digest('hex'),
      size: bytes.length,
      mtimeMs: (await stat(file)).mtimeMs,
      // The corpus' files were written long before: their stamp is settled.
      stamp: stampOf(await stat(file, { bigint: true })),
    });
    expect(result.sha256).toBe(sha256Buffer(bytes));
  });

  it('gives no stamp for a file whose times are not settled: a write in the same tick could leave them as they are', async () => {
    const file = path.join(dir, 'fresh.bin');
    await writeFile(file, Buffer.alloc(5000, 7));
    expect((await sha256File(file)).stamp).toBeNull();
    // Its modification time put back a year: the change time is still now, and it decides.
    const yearAgo = new Date(Date.now() - 365 * 86_400_000);
    await utimes(file, yearAgo, yearAgo);
    expect((await sha256File(file)).stamp).toBeNull();
    // Settled enough by a shorter rule (tests use 0): the stamp is the file's stat.
    expect((await sha256File(file, { settledAfterMs: 0 })).stamp).toEqual(stampOf(await stat(file, { bigint: true })));
  });

  it('streams a file of several chunks to the same digest', async () => {
    // 3.5 MiB of varied bytes: more than three 1 MiB read chunks.
    const bytes = Buffer.alloc(3.5 * 1024 * 1024);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 2654435761) >>> 24;
    const file = path.join(dir, 'big.bin');
    await writeFile(file, bytes);
    expect(await sha256File(file)).toMatchObject({ sha256: sha256Buffer(bytes), size: bytes.length });
  });

  it('gives each of many files hashed at once its own digest (read buffers are reused)', async () => {
    const files = await Promise.all(
      Array.from({ length: 12 }, async (_, k) => {
        const bytes = Buffer.alloc(1024 * 1024 + k * 4099, k + 1);
        const file = path.join(dir, `many-${k}.bin`);
        await writeFile(file, bytes);
        return { file, sha256: sha256Buffer(bytes), size: bytes.length };
      }),
    );
    for (let round = 0; round < 2; round++) {
      const results = await Promise.all(files.map((f) => sha256File(f.file)));
      expect(results.map(({ sha256, size }) => ({ sha256, size }))).toEqual(files.map(({ sha256, size }) => ({ sha256, size })));
    }
  });

  it('hashes an empty file', async () => {
    const file = path.join(dir, 'empty.bin');
    await writeFile(file, '');
    expect(await sha256File(file)).toMatchObject({
      sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      size: 0,
    });
  });

  it('fails permanently with the path when the file does not exist', async () => {
    const missing = path.join(dir, 'nope.jpg');
    const err = await sha256File(missing).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentJobError);
    expect((err as Error).message).toBe(`File not found at ${missing}`);
  });

  it('fails permanently on a folder', async () => {
    const err = await sha256File(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentJobError);
    expect((err as Error).message).toMatch(/^Not a file: /);
  });

  it('is abortable: an aborted signal rejects with an AbortError, not a job error', async () => {
    const file = path.join(dir, 'big.bin');
    const controller = new AbortController();
    controller.abort();
    const err = await sha256File(file, { signal: controller.signal }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).name).toBe('AbortError');
    expect(err).not.toBeInstanceOf(PermanentJobError);
  });

  it('stops a read in progress when aborted', async () => {
    const file = path.join(dir, 'big.bin');
    const controller = new AbortController();
    const pending = sha256File(file, { signal: controller.signal });
    controller.abort();
    const err = await pending.catch((e: unknown) => e);
    expect((err as Error).name).toBe('AbortError');
  });

  it('refuses a file over maxBytes from its size, before reading it (a sparse 2 GiB file)', async () => {
    const file = path.join(dir, 'huge.jpg');
    const fh = await open(file, 'w');
    await fh.truncate(2 * 1024 ** 3); // sparse: no disk space, but 2 GiB to read
    await fh.close();
    const readBefore = bytesReadByThisProcess();
    const err = await sha256File(file, { maxBytes: 1536 * 1024 ** 2 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentJobError);
    expect((err as Error).message).toBe('File too large: 2 GB exceeds the 1.5 GB limit');
    // Not read: what this process read in the meantime is far less than one 1 MiB chunk.
    expect(bytesReadByThisProcess() - readBefore).toBeLessThan(256 * 1024);
  });

  it('hashes a file of exactly maxBytes', async () => {
    const file = path.join(dir, 'exact.bin');
    await writeFile(file, Buffer.alloc(4096, 7));
    expect(await sha256File(file, { maxBytes: 4096 })).toMatchObject({ size: 4096 });
    await expect(sha256File(file, { maxBytes: 4095 })).rejects.toThrow('File too large');
  });
});

/** Bytes this process has read through read(2) and friends so far (Linux's /proc/self/io). */
function bytesReadByThisProcess(): number {
  return Number(/rchar: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))![1]);
}

describe('fsReadError', () => {
  const errno = (code: string) => Object.assign(new Error(`${code}: something`), { code });

  it.each([
    ['ENOENT', /^File not found at \/x\/y\.jpg$/],
    ['ENOTDIR', /^File not found at \/x\/y\.jpg/],
    ['EISDIR', /^Not a file: /],
    ['EACCES', /^Permission denied reading \/x\/y\.jpg$/],
  ])('%s is permanent', (code, message) => {
    const err = fsReadError(errno(code), '/x/y.jpg');
    expect(err).toBeInstanceOf(PermanentJobError);
    expect((err as Error).message).toMatch(message);
  });

  it.each(['EMFILE', 'ENFILE', 'EBUSY', 'EIO', 'EAGAIN', 'EPERM'])('%s is retryable (a plain Error)', (code) => {
    const err = fsReadError(errno(code), '/x/y.jpg');
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(PermanentJobError);
    expect((err as Error).message).toContain('/x/y.jpg');
    expect((err as Error).message).toContain(code);
  });
});
