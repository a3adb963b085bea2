/**
 * One memory budget for all worker processes, so a small machine runs fewer workers instead of
 * running out of memory (four 1.4 GB files and four 16-bit PNGs once took 6.2 GB with 4 workers).
 * Shared: main sizes its pool by it, and Settings states it next to the worker count.
 *
 * The rule: workers together may use half of the machine's memory (the rest is the system's,
 * main's, the window's and other programs'). Each worker is counted at WORKER_SHARE_MIN_MB (its
 * heap plus the image buffers outside it, which sharp and the file reads hold), so the pool runs at
 * most budget / 512 MB workers, whatever the setting asks. Each worker's V8 heap limit is half its
 * share of the budget, between 256 MB and 1 GB. Total memory, not free memory: free memory
 * swings with the page cache and other programs, and a pool sized by it would change at random.
 */

export const WORKERS_SHARE_OF_MEMORY = 0.5;
export const WORKER_SHARE_MIN_MB = 512;
export const WORKER_HEAP_MIN_MB = 256;
export const WORKER_HEAP_MAX_MB = 1024;

export interface WorkerBudget {
  /** What Settings asks for. */
  requested: number;
  /** What runs: the request, capped by the budget. */
  workers: number;
  /** The most the budget allows on this machine. */
  maxWorkers: number;
  /** Each worker's V8 heap limit. */
  heapMb: number;
  /** All workers together. */
  budgetMb: number;
  totalMb: number;
}

export function workerBudget(requested: number, totalMb: number, heapMaxMb = WORKER_HEAP_MAX_MB): WorkerBudget {
  const budgetMb = Math.floor(totalMb * WORKERS_SHARE_OF_MEMORY);
  const maxWorkers = Math.max(1, Math.floor(budgetMb / WORKER_SHARE_MIN_MB));
  const workers = Math.max(1, Math.min(Math.floor(requested), maxWorkers));
  const half = Math.floor(budgetMb / workers / 2);
  const heapMb = Math.min(heapMaxMb, Math.max(WORKER_HEAP_MIN_MB, half));
  return { requested, workers, maxWorkers, heapMb, budgetMb, totalMb };
}

/** The budget in a sentence, for Settings. */
export function describeWorkerBudget(b: WorkerBudget): string {
  const gb = (mb: number) => `${(mb / 1024).toFixed(mb < 10 * 1024 ? 1 : 0)} GB`;
  const runs =
    b.workers < b.requested
      ? `${b.workers} will run: this machine has ${gb(b.totalMb)} of memory, and workers may use half of it (${gb(b.budgetMb)}), at least 512 MB each.`
      : `Workers may use half of this machine's ${gb(b.totalMb)} of memory (${gb(b.budgetMb)}), at least 512 MB each: up to ${b.maxWorkers} here.`;
  return `${runs} Each has a heap limit of ${b.heapMb} MB.`;
}
