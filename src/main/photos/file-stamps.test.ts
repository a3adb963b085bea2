import { describe, expect, it } from 'vitest';
import type { FileStamp } from '../../shared/jobs/file-stamp';
import { FileStamps } from './file-stamps';

const stamp = (ino: number): FileStamp => ({ dev: '1', ino: String(ino), size: 100, mtimeNs: '5', ctimeNs: '6' });
const SHA = 'a'.repeat(64);

describe('FileStamps', () => {
  it('gives a photo its stamp once, and only with the hash it was taken with', () => {
    const stamps = new FileStamps();
    stamps.remember(1, SHA, stamp(1));
    stamps.remember(2, SHA, stamp(2));
    expect(stamps.take(1, SHA)).toEqual(stamp(1));
    expect(stamps.take(1, SHA)).toBeUndefined(); // a retry hashes
    // The photo's recorded content is another now (relinked, re-imported): the stamp vouches for nothing.
    expect(stamps.take(2, 'b'.repeat(64))).toBeUndefined();
    expect(stamps.size).toBe(0);
  });

  it('keeps at most its cap, dropping the oldest (their workers hash)', () => {
    const stamps = new FileStamps(2);
    stamps.remember(1, SHA, stamp(1));
    stamps.remember(2, SHA, stamp(2));
    stamps.remember(3, SHA, stamp(3));
    expect([stamps.take(1, SHA), stamps.take(2, SHA), stamps.take(3, SHA)]).toEqual([undefined, stamp(2), stamp(3)]);
  });
});
