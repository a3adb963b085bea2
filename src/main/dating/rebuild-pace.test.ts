import { describe, expect, it } from 'vitest';
import { UserActivity } from '../ipc/user-activity';
import {
  REBUILD_CHUNK,
  REBUILD_CHUNK_MIN,
  REBUILD_STEP_BUDGET_ACTIVE_MS,
  REBUILD_STEP_BUDGET_MS,
  RebuildPace,
  USER_ACTIVE_WINDOW_MS,
  userPacedBudget,
} from './rebuild-pace';

/** A pace on a clock the test moves: each stretch "costs" what the test says. */
function paced(budgetMs: number) {
  let t = 0;
  const pace = new RebuildPace(budgetMs, () => t);
  const stretch = (kind: 'load' | 'apply', photos: number, ms: number) => {
    const started = pace.start();
    t += ms;
    pace.record(kind, started, photos);
  };
  return { pace, stretch };
}

describe('RebuildPace', () => {
  it('sizes a step so that its dearer stretch fits the budget', () => {
    const { pace, stretch } = paced(4);
    stretch('load', 50, 2.5); // 0.05 ms a photo
    stretch('apply', 50, 5); // 0.1 ms a photo: the dearer one decides
    expect(pace.nextSize()).toBe(40);
  });

  it('follows a cost that changes, smoothed rather than jumping on one slow step', () => {
    const { pace, stretch } = paced(4);
    stretch('apply', 40, 4); // 0.1 ms a photo → 40
    stretch('apply', 40, 40); // one step ten times dearer (the host took the CPU away)
    const after = pace.nextSize();
    expect(after).toBeLessThan(40);
    expect(after).toBeGreaterThan(4);
  });

  it('stays within its bounds and ignores an empty step', () => {
    const cheap = paced(4);
    cheap.stretch('apply', 200, 0.2);
    expect(cheap.pace.nextSize()).toBe(REBUILD_CHUNK);
    const dear = paced(4);
    dear.stretch('apply', 10, 100);
    dear.stretch('load', 0, 100);
    expect(dear.pace.nextSize()).toBe(REBUILD_CHUNK_MIN);
  });

  it('starts below the largest step, before anything was measured', () => {
    const first = new RebuildPace(4).nextSize();
    expect(first).toBeGreaterThanOrEqual(REBUILD_CHUNK_MIN);
    expect(first).toBeLessThan(REBUILD_CHUNK);
  });
});

describe('userPacedBudget', () => {
  it('takes the small budget while the user made a request within the window, and the full one after', () => {
    let t = 0;
    const activity = new UserActivity(() => t);
    const budget = userPacedBudget(activity);
    expect(budget()).toBe(REBUILD_STEP_BUDGET_MS); // nobody has asked for anything yet
    activity.noteRequest();
    expect(budget()).toBe(REBUILD_STEP_BUDGET_ACTIVE_MS);
    t += USER_ACTIVE_WINDOW_MS - 1;
    expect(budget()).toBe(REBUILD_STEP_BUDGET_ACTIVE_MS);
    t += 1;
    expect(budget()).toBe(REBUILD_STEP_BUDGET_MS);
  });

  it('sizes each step on the budget of its own moment: smaller while the user is active, grown back when idle', () => {
    let wall = 0;
    const activity = new UserActivity(() => wall);
    let cpu = 0;
    const pace = new RebuildPace(userPacedBudget(activity), () => cpu);
    const apply = (photos: number) => {
      const started = pace.start();
      cpu += photos * 0.0625; // 1/16 ms of main's CPU a photo (exact in binary: sizes are floors of budget / cost)
      pace.record('apply', started, photos);
    };
    apply(50);
    expect(pace.nextSize()).toBe(Math.floor(REBUILD_STEP_BUDGET_MS / 0.0625));
    activity.noteRequest();
    const active = pace.nextSize();
    expect(active).toBe(Math.floor(REBUILD_STEP_BUDGET_ACTIVE_MS / 0.0625));
    apply(active);
    wall += USER_ACTIVE_WINDOW_MS;
    expect(pace.nextSize()).toBe(Math.floor(REBUILD_STEP_BUDGET_MS / 0.0625));
  });
});
