import { describe, expect, it } from 'vitest';
import { CycleBudget } from './cycle-budget';

describe('CycleBudget', () => {
  it('fits as many outcomes and claims as the measured cost allows in 3 ms, at least one, at most 128', () => {
    const budget = new CycleBudget();
    expect(budget.items()).toBe(30); // 0.1 ms each until something is measured
    for (let i = 0; i < 50; i++) budget.spent(60, 3); // 0.05 ms each: the smoothed cost nears it from above
    expect(budget.items()).toBeGreaterThanOrEqual(59);
    expect(budget.items()).toBeLessThanOrEqual(60);
    for (let i = 0; i < 50; i++) budget.spent(10, 100); // 10 ms each: an apply that writes much
    expect(budget.items()).toBe(1);
    for (let i = 0; i < 100; i++) budget.spent(1000, 1); // 1 µs each
    expect(budget.items()).toBe(128);
  });

  it('learns nothing from a cycle that did nothing', () => {
    const budget = new CycleBudget();
    budget.spent(0, 50);
    expect(budget.items()).toBe(30);
  });
});
