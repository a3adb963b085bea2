/** The first bytes of a file (its format, a JPEG's header), without reading the rest. */
import { open } from 'node:fs/promises';
import { fsReadError } from '../../shared/node/io-errors';

export async function readFileHead(filePath: string, bytes: number): Promise<Buffer> {
  let fh: Awaited<ReturnType<typeof open>> | undefined;
  try {
    fh = await open(filePath, 'r');
    const buf = Buffer.allocUnsafe(bytes);
    const { bytesRead } = await fh.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } catch (err) {
    throw fsReadError(err, filePath);
  } finally {
    await fh?.close().catch(() => undefined);
  }
}
