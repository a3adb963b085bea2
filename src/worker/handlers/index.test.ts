import { describe, expect, it } from 'vitest';
import { onFirstUse, workerHandlers } from './index';
import type { RunContext } from './types';
import { PRODUCT_JOB_TYPES, diagnosticJobTypes } from '../../shared/jobs/types';

const ctx: RunContext = { jobId: 1, attempt: 1, signal: new AbortController().signal, progress: () => undefined };

describe('workerHandlers', () => {
  it('has every product job type, and a lazily loaded one runs on its first job', async () => {
    const handlers = workerHandlers({ diagnostics: false });
    expect(Object.keys(handlers).sort()).toEqual([...PRODUCT_JOB_TYPES].sort());
    expect(await handlers.constraint_rebuild({ photos: [] }, ctx)).toEqual({ estimates: [] });
  });

  it('adds the diagnostic types only when asked', () => {
    const all = Object.keys(workerHandlers({ diagnostics: true })).sort();
    expect(all).toEqual([...PRODUCT_JOB_TYPES, ...Object.keys(diagnosticJobTypes)].sort());
  });
});

describe('onFirstUse', () => {
  it('loads once, and tries again on the next job after a failed load', async () => {
    let loads = 0;
    const handler = onFirstUse(async () => {
      loads++;
      if (loads === 1) throw new Error('module could not be loaded');
      return async (input: unknown) => ({ echoed: input });
    });
    await expect(handler('a', ctx)).rejects.toThrow('module could not be loaded');
    expect(await handler('b', ctx)).toEqual({ echoed: 'b' });
    expect(await handler('c', ctx)).toEqual({ echoed: 'c' });
    expect(loads).toBe(2);
  });
});
