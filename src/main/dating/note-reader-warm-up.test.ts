import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../test/support/manual-clock';
import { UserActivity } from '../ipc/user-activity';
import { QUIET_MS, WARM_UP_AFTER_MS, WARM_UP_READINGS, WARM_UP_TEXTS, warmedWhenQuiet } from './note-reader-warm-up';

/** A reader that records what it read, on a clock and an activity signal the test moves. */
function setUp() {
  const clock = new ManualClock(0);
  const activity = new UserActivity(() => clock.now());
  const read: string[] = [];
  const logged: string[] = [];
  const log = { info: (m: string) => logged.push(m), warn: (m: string) => logged.push(m), error: (m: string) => logged.push(m) };
  const warmed = warmedWhenQuiet((text: string) => (read.push(text), [text.length]), { activity, clock, log });
  return { clock, activity, read, logged, warmed };
}

describe('warmedWhenQuiet', () => {
  it('reads each warm-up text a few times once main is quiet after open, and says so once', () => {
    const { clock, read, logged } = setUp();
    clock.advance(WARM_UP_AFTER_MS - 1);
    expect(read).toEqual([]);
    clock.advance(1);
    expect(read).toHaveLength(WARM_UP_READINGS * WARM_UP_TEXTS.length);
    expect(new Set(read)).toEqual(new Set(WARM_UP_TEXTS));
    expect(logged).toEqual([
      expect.stringMatching(
        new RegExp(
          `^date readers warmed: ${WARM_UP_READINGS * WARM_UP_TEXTS.length} findings in ${WARM_UP_READINGS * WARM_UP_TEXTS.length} readings, \\d+ ms$`,
        ),
      ),
    ]);
    clock.advance(60_000);
    expect(read).toHaveLength(WARM_UP_READINGS * WARM_UP_TEXTS.length);
    expect(clock.pending()).toBe(0);
  });

  it('waits while requests keep coming, and runs in the first quiet moment', () => {
    const { clock, activity, read } = setUp();
    for (let t = 0; t < 5_000; t += 100) {
      activity.noteRequest();
      clock.advance(100);
    }
    expect(read).toEqual([]);
    clock.advance(QUIET_MS * 2);
    expect(read.length).toBeGreaterThan(0);
  });

  it('reads one text per turn, and a request between two readings puts the rest off until quiet again', () => {
    const clock = new ManualClock(0);
    const activity = new UserActivity(() => clock.now());
    const read: string[] = [];
    const log = { info: () => {}, warn: () => {}, error: () => {} };
    warmedWhenQuiet(
      (text: string) => {
        read.push(text);
        if (read.length === 1) activity.noteRequest(); // the archivist clicks during the first reading
        return [];
      },
      { activity, clock, log },
    );
    clock.advance(WARM_UP_AFTER_MS);
    expect(read).toHaveLength(1);
    clock.advance(QUIET_MS);
    expect(read).toHaveLength(WARM_UP_READINGS * WARM_UP_TEXTS.length);
  });

  it('is given up when a real reading comes first (that one paid already), and on cancel', () => {
    const first = setUp();
    expect(first.warmed.read('before 1906')).toEqual([11]);
    first.clock.advance(60_000);
    expect(first.read).toEqual(['before 1906']);
    expect(first.clock.pending()).toBe(0);

    const closed = setUp();
    closed.warmed.cancel();
    closed.clock.advance(60_000);
    expect(closed.read).toEqual([]);
  });

  it('logs a reader that throws, and throws nothing itself', () => {
    const clock = new ManualClock(0);
    const logged: string[] = [];
    const log = {
      info: (m: string) => logged.push(m),
      warn: (m: string) => logged.push(m),
      error: (m: string) => logged.push(m),
    };
    warmedWhenQuiet(
      () => {
        throw new Error('settings unreadable');
      },
      { activity: new UserActivity(() => clock.now()), clock, log },
    );
    expect(() => clock.advance(WARM_UP_AFTER_MS)).not.toThrow();
    expect(logged).toEqual([expect.stringContaining('settings unreadable')]);
  });
});
