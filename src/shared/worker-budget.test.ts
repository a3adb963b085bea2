import { describe, expect, it } from 'vitest';
import { describeWorkerBudget, workerBudget } from './worker-budget';

describe('the workers’ memory budget', () => {
  it('gives workers half the machine, at least 512 MB each, and each a heap of half its share (256 MB – 1 GB)', () => {
    expect(workerBudget(4, 16 * 1024)).toMatchObject({ workers: 4, maxWorkers: 16, heapMb: 1024, budgetMb: 8192 });
    expect(workerBudget(4, 8 * 1024)).toMatchObject({ workers: 4, maxWorkers: 8, heapMb: 512 });
    expect(workerBudget(4, 4 * 1024)).toMatchObject({ workers: 4, maxWorkers: 4, heapMb: 256 });
    // A small machine runs fewer workers than asked.
    expect(workerBudget(4, 2 * 1024)).toMatchObject({ workers: 2, maxWorkers: 2, heapMb: 256 });
    expect(workerBudget(16, 3 * 1024)).toMatchObject({ workers: 3, maxWorkers: 3, heapMb: 256 });
    // Never none, however little memory.
    expect(workerBudget(4, 700)).toMatchObject({ workers: 1, maxWorkers: 1, heapMb: 256 });
    // One worker on a big machine: capped at the runner's heap limit.
    expect(workerBudget(1, 64 * 1024)).toMatchObject({ workers: 1, heapMb: 1024 });
    expect(workerBudget(1, 64 * 1024, 64).heapMb).toBe(64);
  });

  it('says what runs, and why fewer than asked', () => {
    expect(describeWorkerBudget(workerBudget(4, 2 * 1024))).toBe(
      '2 will run: this machine has 2.0 GB of memory, and workers may use half of it (1.0 GB), at least 512 MB each. Each has a heap limit of 256 MB.',
    );
    expect(describeWorkerBudget(workerBudget(2, 16 * 1024))).toBe(
      "Workers may use half of this machine's 16 GB of memory (8.0 GB), at least 512 MB each: up to 16 here. Each has a heap limit of 1024 MB.",
    );
  });
});
