/** The Coalescer under a clock the test moves: one flush per interval, and no change lost. */
import { describe, expect, it } from 'vitest';
import { Coalescer } from './event-hub';
import { ManualClock } from '../../../test/support/manual-clock';

function coalescer(flush: (ids: number[]) => void) {
  const clock = new ManualClock(0);
  const errors: unknown[] = [];
  const c = new Coalescer<number>(200, flush, { clock, onError: (e) => errors.push(e) });
  return { c, clock, errors };
}

describe('Coalescer', () => {
  it('a burst is one flush; the next waits for the interval', () => {
    const flushed: number[][] = [];
    const { c, clock } = coalescer((ids) => flushed.push(ids));
    for (let i = 0; i < 1000; i++) c.add([i % 10]);
    clock.advance(0);
    expect(flushed).toEqual([[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]]);
    c.add([42]);
    clock.advance(199);
    expect(flushed).toHaveLength(1);
    clock.advance(1);
    expect(flushed.at(-1)).toEqual([42]);
  });

  it('a flush that throws keeps its changes for the next try, with those that came since', () => {
    const flushed: number[][] = [];
    let fail = true;
    const { c, clock, errors } = coalescer((ids) => {
      if (fail) throw new Error('database is locked');
      flushed.push(ids);
    });
    c.add([1, 2]);
    clock.advance(0);
    expect(errors).toHaveLength(1);
    fail = false;
    c.add([3]);
    clock.advance(200);
    expect(flushed).toEqual([[1, 2, 3]]);
  });

  it('flushNow tells at once (even with nothing waiting) and cancels the waiting flush', () => {
    const flushed: number[][] = [];
    const { c, clock } = coalescer((ids) => flushed.push(ids));
    c.add([7]);
    c.flushNow();
    c.flushNow();
    clock.advance(1000);
    expect(flushed).toEqual([[7], []]);
  });

  it('closed: what waits is dropped and nothing more is taken (no timer left behind)', () => {
    const flushed: number[][] = [];
    const { c, clock } = coalescer((ids) => flushed.push(ids));
    c.add([1]);
    c.close();
    c.add([2]);
    c.flushNow();
    expect(clock.pending()).toBe(0);
    clock.advance(1000);
    expect(flushed).toEqual([]);
  });
});
