/**
 * How much one runner cycle may do. A cycle blocks main's event loop (a user's click waits behind
 * it) and holds the write lock (a headless runner's or the app's write waits behind it), so it
 * commits outcomes and claims jobs, together, only as many as fit in CYCLE_BUDGET_MS at the cost
 * measured so far — a no-op's success or claim costs ~0.05 ms, an import's metadata ~1 ms — and
 * never more than MAX_ITEMS_PER_CYCLE. The runner commits outcomes first; claims take what is left.
 *
 * 3 ms, not 4: with claims inside the budget and ~10k jobs/s, a user write through main during a
 * drain had p99 7.9–10.0 ms at 4 and 6.9–11.0 (median 7.8) at 3, with no loss of throughput.
 */
const CYCLE_BUDGET_MS = 3;
const MAX_ITEMS_PER_CYCLE = 128;
/** Weight of the newest cycle in the smoothed cost. */
const WEIGHT = 0.2;

export class CycleBudget {
  /** Smoothed cost of committing one outcome or claiming one job, in ms. */
  private itemCostMs = 0.1;

  /** Outcomes and claims that fit in one cycle. */
  items(): number {
    return Math.max(1, Math.min(MAX_ITEMS_PER_CYCLE, Math.floor(CYCLE_BUDGET_MS / this.itemCostMs)));
  }

  /** A cycle committed and claimed `done` items in `ms`: it sizes the next cycles. */
  spent(done: number, ms: number): void {
    if (done > 0) this.itemCostMs += WEIGHT * (ms / done - this.itemCostMs);
  }
}
