/**
 * A file's stamp: what the file system says about its bytes without reading them (device, inode,
 * size, modification and change time, to the nanosecond). Main hashes each imported file once; the
 * stamp it took while hashing lets the metadata job's worker know, by two stats, that the bytes it
 * reads are the bytes main hashed, instead of hashing them a second time (issue 31 item 4: the
 * second SHA-256 was ~2.5 ms of a photo's ~46 ms).
 *
 * Why that is safe: any write to a file, and any `touch -r`/`utimes` that puts its modification
 * time back, sets its change time (ctime) to the present, which no program can set; a file
 * replaced by a rename (how most editors save) has another inode. So an unchanged stamp means
 * unchanged bytes — git's index trusts the same. Where a stamp differs (a chmod, a remount) the
 * worker hashes as before, so a mismatch only costs time.
 *
 * The schema and comparisons live here, free of Node, because the metadata job's input (which the
 * renderer's types see) carries a stamp; taking one from a stat is in `shared/node/file-stamp-of.ts`.
 *
 * The one gap is the file system's timestamp granularity: two writes within one tick can leave
 * the same change time. A stamp is therefore taken only from a file whose times are older than
 * SETTLED_AFTER_MS when main looked (git's "racily clean" entries, handled the same way): any
 * write after that sets a later change time. 3 s covers FAT's 2 s modification-time tick.
 */
import { z } from 'zod';

export const SETTLED_AFTER_MS = 3000;

const decimal = z.string().regex(/^-?\d{1,30}$/);

export const fileStampSchema = z
  .object({
    dev: decimal,
    ino: decimal,
    size: z.number().int().nonnegative(),
    mtimeNs: decimal,
    ctimeNs: decimal,
  })
  .strict();
export type FileStamp = z.infer<typeof fileStampSchema>;

export function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;
}

/**
 * True when the stamp's times are at least `settledAfterMs` older than `nowMs` (the moment before
 * the stat that took it): a later write cannot then leave the same change time.
 */
export function isSettled(stamp: FileStamp, nowMs: number, settledAfterMs = SETTLED_AFTER_MS): boolean {
  const newest = BigInt(stamp.ctimeNs) > BigInt(stamp.mtimeNs) ? BigInt(stamp.ctimeNs) : BigInt(stamp.mtimeNs);
  return newest <= BigInt(Math.floor(nowMs - settledAfterMs)) * 1_000_000n;
}
