/**
 * The stamps main took while hashing imported files (src/shared/jobs/file-stamp.ts), kept in
 * memory until each photo's metadata job loads: the job hands its worker the stamp with the
 * recorded hash, and the worker, finding the file's stamp unchanged, does not hash it again.
 *
 * Memory only, on purpose: a stamp is an optimisation, never a record. After a restart, or for
 * a photo whose stamp was dropped (the cap below), the worker hashes the file as before. The jobs'
 * payloads stay `{ photoId }`: a renderer can enqueue those, and must not be able to vouch for a
 * file's bytes.
 */
import type { FileStamp } from '../../shared/jobs/file-stamp';

/** At most this many kept (~200 bytes each); the oldest go first, to be hashed by their worker. */
const MAX_KEPT = 200_000;

interface Kept {
  sha256: string;
  stamp: FileStamp;
}

export class FileStamps {
  private readonly kept = new Map<number, Kept>();

  constructor(private readonly maxKept = MAX_KEPT) {}

  remember(photoId: number, sha256: string, stamp: FileStamp): void {
    this.kept.delete(photoId);
    this.kept.set(photoId, { sha256, stamp });
    if (this.kept.size > this.maxKept) this.kept.delete(this.kept.keys().next().value!);
  }

  /** The stamp taken with this hash, once: a retry of the job hashes (it may have failed on a changed file). */
  take(photoId: number, sha256: string): FileStamp | undefined {
    const k = this.kept.get(photoId);
    this.kept.delete(photoId);
    return k && k.sha256 === sha256 ? k.stamp : undefined;
  }

  get size(): number {
    return this.kept.size;
  }
}
