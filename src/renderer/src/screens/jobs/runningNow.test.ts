import { describe, expect, it } from 'vitest';
import { runningNow } from './runningNow';

describe('runningNow', () => {
  it('with one worker, one job runs and the others claimed behind it are next in line', () => {
    expect(runningNow(3, 1)).toEqual({ now: 1, inLine: 2 });
  });
  it('counts every running job when the workers can run them all', () => {
    expect(runningNow(2, 4)).toEqual({ now: 2, inLine: 0 });
    expect(runningNow(0, 1)).toEqual({ now: 0, inLine: 0 });
  });
  it('before the worker count is known, says what the table says', () => {
    expect(runningNow(3, undefined)).toEqual({ now: 3, inLine: 0 });
    expect(runningNow(3, 0)).toEqual({ now: 3, inLine: 0 });
  });
});
