/** Retry delay: 30 s doubling per retry, capped at 15 min, with ±10 % jitter so a burst of failures spreads out. */
export const BACKOFF_BASE_MS = 30_000;
export const BACKOFF_CAP_MS = 15 * 60_000;

export function retryDelayMs(retryCount: number, random: () => number = Math.random): number {
  const raw = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, retryCount));
  const jitter = 1 + (random() * 2 - 1) * 0.1;
  return Math.round(Math.min(BACKOFF_CAP_MS, raw * jitter));
}
