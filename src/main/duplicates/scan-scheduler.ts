/**
 * Starts a `duplicate_scan` after photos get new hashes (an import's metadata jobs), so new scans
 * are compared with the library without anyone asking. It waits until hashes stop arriving for a
 * moment (an import of thousands is one scan, not thousands), and at most MAX_WAIT_MS after the
 * first. The scan is incremental: only the new photos are compared.
 *
 * A scan that is already queued will see the new photos. One that is already running may have
 * passed them by, so the scheduler tries again later until its enqueue creates or finds a queued one.
 */
import type { JobStatus } from '../../shared/jobs/states';

export const QUIET_MS = 3_000;
const MAX_WAIT_MS = 30_000;

export type EnqueueScan = () => { status: JobStatus; created: boolean };

export class DuplicateScanScheduler {
  private timer: NodeJS.Timeout | null = null;
  private firstWantedAt = 0;
  private closed = false;

  constructor(
    private readonly enqueue: EnqueueScan,
    private readonly onError: (err: unknown) => void,
    private readonly quietMs = QUIET_MS,
  ) {}

  /** Some photo got new hashes. */
  wanted(): void {
    if (this.closed) return;
    const now = Date.now();
    if (!this.timer) this.firstWantedAt = now;
    else clearTimeout(this.timer);
    const wait = Math.max(0, Math.min(this.quietMs, this.firstWantedAt + MAX_WAIT_MS - now));
    this.timer = setTimeout(() => this.fire(), wait);
    this.timer.unref();
  }

  private fire(): void {
    this.timer = null;
    if (this.closed) return;
    try {
      const { status, created } = this.enqueue();
      if (!created && status === 'running') this.wanted();
    } catch (err) {
      // The library may be busy or closing: try once more later, then leave it to the next photo.
      this.onError(err);
    }
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
