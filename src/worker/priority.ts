/**
 * Background work yields the CPU to main (the UI's requests and the commits that keep the queue
 * moving) and to the rest of the desktop: a worker runs at a lower scheduling priority. Mildly
 * lower: at +10 an import beside one busy core ran at 0.70× the bare loop (0.65–0.80); at +4,
 * 0.82× (0.79–0.97), with main's write latency during a drain no worse (bench/import, bench/queue).
 * The import benchmark's loops run at the same priority, so that its comparison is of work, not
 * of scheduling.
 */
import os from 'node:os';

export const WORKER_NICENESS = 4;

/** Lowers this process's priority by WORKER_NICENESS; where that is not permitted it stays as it is. */
export function lowerWorkerPriority(): void {
  try {
    os.setPriority(Math.min(19, os.getPriority() + WORKER_NICENESS));
  } catch {
    /* not permitted here: run at normal priority */
  }
}
