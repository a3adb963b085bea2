/**
 * How many photos the rebuild's next step takes, so that each of main's stretches in it (the
 * load's read, the apply's transaction) stays near a time budget. A user's write that arrives
 * while main runs a step waits for the stretch to end: with a fixed 200-photo step that was
 * 20–40 ms on a busy host (issue 31) and grows with the findings per photo; with a budget it is
 * bounded whatever the photos hold. The cost per photo is measured
 * as the rebuild runs and smoothed; the step size is the budget over the dearer stretch's cost,
 * within fixed bounds. It is main's CPU time, not wall time: on a crowded host a stretch's wall
 * time is mostly waiting for a CPU, which a smaller step does not shorten (each step has a fixed
 * cost, so it would only make the rebuild longer). While the archivist is using the app the budget
 * is smaller (userPacedBudget), so what they wait behind is a few ms; when they are away the
 * steps grow back and the rebuild keeps its speed.
 */
import type { UserActivity } from '../ipc/user-activity';

/**
 * Main's CPU time per stretch that a waiting user write may meet. Issue 31 asked for 3–4 ms; at
 * 4 ms the steps fell to ~50 photos and, on the crowded 2-core host where it was measured (load
 * 11–20), the rebuild took 22.1–22.4 s against 9.5–19.3 s with 200-photo steps, while a write's
 * wait did not shorten (its p99 was 138–143 ms against 126–240 ms: the wait is for a CPU, not for
 * main's step). 12 ms keeps ~200-photo steps for evidence like the bench's and still caps a step
 * whose photos are dear (many findings each), which a fixed size did not.
 */
export const REBUILD_STEP_BUDGET_MS = 12;
/**
 * The budget while the archivist is using the app (a request within USER_ACTIVE_WINDOW_MS). A
 * request that arrives while main runs a stretch waits for it to end; on a quiet host the 12 ms
 * stretches (an apply's transaction, then the next load, back to back) were what user writes of
 * 15–36 ms waited behind. Smaller steps cost the rebuild more fixed cost per photo, so they are
 * taken only while someone is waiting on main's answers. 2 ms, not 4: on a quiet host (4 paired
 * runs of `bench -- dating --only rebuild --small --rounds 3`) a write's p99 after the first
 * second was 9.3 ms (7.3–24.7) against 14.0 (11.0–25.3), for a rebuild 1.1–1.2× as long.
 */
export const REBUILD_STEP_BUDGET_ACTIVE_MS = 2;
/** A request this recent means the archivist is using the app (typing, clicking, the screen re-reading). */
export const USER_ACTIVE_WINDOW_MS = 2_000;
/** At most this many photos a step, however cheap. */
export const REBUILD_CHUNK = 200;
/** At least this many: below it a step's fixed cost (claim, checkpoint, ledger, messages) dominates. */
export const REBUILD_CHUNK_MIN = 20;
/** The first step's size, before anything was measured. */
const FIRST_STEP = 50;
/** Weight of the newest measurement in the smoothed cost per photo. */
const SMOOTHING = 0.3;

export type Stretch = 'load' | 'apply';

/** The step budget paced by the user: REBUILD_STEP_BUDGET_ACTIVE_MS while they are active, else the full one. */
export function userPacedBudget(activity: Pick<UserActivity, 'activeWithin'>): () => number {
  return () => (activity.activeWithin(USER_ACTIVE_WINDOW_MS) ? REBUILD_STEP_BUDGET_ACTIVE_MS : REBUILD_STEP_BUDGET_MS);
}

/** CPU time this process has used, in ms. */
function processCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

export class RebuildPace {
  private readonly msPerPhoto: Record<Stretch, number | undefined> = { load: undefined, apply: undefined };

  private readonly budgetMs: () => number;

  /** `budgetMs`: a fixed budget, or one asked again before every step (userPacedBudget). */
  constructor(
    budgetMs: number | (() => number) = REBUILD_STEP_BUDGET_MS,
    private readonly now: () => number = processCpuMs,
  ) {
    this.budgetMs = typeof budgetMs === 'number' ? () => budgetMs : budgetMs;
  }

  /** Photos for the next step. */
  nextSize(): number {
    const costs = Object.values(this.msPerPhoto).filter((x): x is number => x !== undefined);
    if (!costs.length) return FIRST_STEP;
    const dearest = Math.max(...costs);
    if (dearest <= 0) return REBUILD_CHUNK;
    return Math.max(REBUILD_CHUNK_MIN, Math.min(REBUILD_CHUNK, Math.floor(this.budgetMs() / dearest)));
  }

  /** The time a stretch starts, for `record`. */
  start(): number {
    return this.now();
  }

  /** Records what a stretch that began at `startedAt` and covered `photos` photos cost per photo. */
  record(stretch: Stretch, startedAt: number, photos: number): void {
    if (photos <= 0) return;
    const each = (this.now() - startedAt) / photos;
    const before = this.msPerPhoto[stretch];
    this.msPerPhoto[stretch] = before === undefined ? each : before + SMOOTHING * (each - before);
  }
}
