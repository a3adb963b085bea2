/** When cycles run: one per turn, one more when asked during a cycle, none once stopped. */
import { describe, expect, it } from 'vitest';
import { CyclePump } from './cycle-pump';
import { nextTurn } from '../../../../test/support/manual-clock';

/** A pump whose cycles only count themselves. */
function counted() {
  let n = 0;
  const pump = new CyclePump(
    () => n++,
    () => {},
  );
  return { pump, cycles: () => n };
}

describe('CyclePump', () => {
  it('wakes coalesce into one cycle on the next turn; a wake during a cycle asks for exactly one more', async () => {
    let cycles = 0;
    let settled = 0;
    let wakeInside = true;
    const pump: CyclePump = new CyclePump(
      () => {
        cycles++;
        if (wakeInside) {
          wakeInside = false;
          pump.wake();
          pump.wake();
        }
      },
      () => settled++,
    );
    pump.wake();
    pump.wake();
    expect(cycles).toBe(0);
    await nextTurn();
    expect(cycles).toBe(1);
    expect(settled).toBe(0);
    await nextTurn();
    expect(cycles).toBe(2);
    expect(settled).toBe(1);
  });

  it('stopped: no cycle runs, and a waiting commit window is dropped', async () => {
    const { pump, cycles } = counted();
    pump.wakeWithinWindow();
    pump.stop();
    pump.wake();
    await new Promise((r) => setTimeout(r, 10));
    expect(cycles()).toBe(0);
  });

  it('a result waits the commit window, then its cycle runs', async () => {
    const { pump, cycles } = counted();
    pump.wakeWithinWindow();
    pump.wakeWithinWindow();
    await nextTurn();
    expect(cycles()).toBe(0);
    await new Promise((r) => setTimeout(r, 10));
    await nextTurn();
    expect(cycles()).toBe(1);
  });
});
