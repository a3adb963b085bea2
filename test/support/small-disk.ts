/**
 * A real, small, fillable disk for full-disk tests: a tmpfs of a few megabytes mounted on a
 * temporary folder (needs root and permission to mount, as in CI's container). `fill` writes a
 * filler file until the kernel says ENOSPC, then frees what the test asks to leave.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from './core';

let probed: string | null | undefined;

/** Why a small disk cannot be mounted here (null: it can). Probed once per test process. */
export function smallDiskUnavailable(): string | null {
  if (probed !== undefined) return probed;
  if (process.platform !== 'linux') return (probed = 'tmpfs mounts are Linux-only');
  if (process.getuid?.() !== 0) return (probed = 'mounting a tmpfs needs root');
  const dir = tempDir('circa-mount-probe-');
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'pipe' });
    execFileSync('umount', [dir], { stdio: 'pipe' });
    probed = null;
  } catch (err) {
    probed = `mount -t tmpfs is not permitted here: ${(err as Error).message.split('\n')[0]}`;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return probed;
}

export interface SmallDisk {
  dir: string;
  /** Bytes still free. */
  free(): number;
  /** Fills the disk, then frees `leaveBytes` of the filler (0: the disk is completely full). */
  fill(leaveBytes?: number): void;
  /** Removes the filler. */
  unfill(): void;
  unmount(): void;
}

export function mountSmallDisk(megabytes: number): SmallDisk {
  const dir = tempDir('circa-small-disk-');
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', dir], { stdio: 'pipe' });
  const filler = path.join(dir, 'filler.bin');
  const free = () => {
    const s = fs.statfsSync(dir);
    return s.bavail * s.bsize;
  };
  return {
    dir,
    free,
    fill(leaveBytes = 0) {
      const fd = fs.openSync(filler, 'a');
      const block = Buffer.alloc(64 * 1024, 0x55);
      try {
        for (;;) {
          try {
            fs.writeSync(fd, block.subarray(0, Math.min(block.length, Math.max(4096, free()))));
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code === 'ENOSPC') break;
            throw err;
          }
        }
      } finally {
        fs.closeSync(fd);
      }
      if (leaveBytes > 0) fs.truncateSync(filler, Math.max(0, fs.statSync(filler).size - leaveBytes));
    },
    unfill() {
      fs.rmSync(filler, { force: true });
    },
    unmount() {
      try {
        execFileSync('umount', [dir], { stdio: 'pipe' });
      } catch {
        execFileSync('umount', ['-l', dir], { stdio: 'pipe' }); // a worker still holding a file: detach it
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
