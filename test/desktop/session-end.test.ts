/**
 * Windows logoff (src/main/electron/session-end.ts) with the real Shutdown behind it, under plain
 * Node; time is a parameter. Before the fix `query-session-end` started the system close itself:
 * an exit that cannot be undone, even when another app then cancelled the logoff.
 */
import { describe, expect, it } from 'vitest';
import { Shutdown } from '../../src/main/electron/shutdown';
import { WindowsSessionEnd, RESUME_AFTER_CANCELLED_LOGOFF_MS } from '../../src/main/electron/session-end';

function harness() {
  const calls: string[] = [];
  const exits: number[] = [];
  const shutdown = new Shutdown({ close: async () => void calls.push('close'), exit: (c) => exits.push(c) });
  const timers = new Map<number, { cb: () => void; at: number }>();
  let now = 0;
  let next = 1;
  const sessionEnd = new WindowsSessionEnd({
    prepare: () => calls.push('prepare'),
    resume: () => calls.push('resume'),
    commit: () => {
      calls.push('commit');
      shutdown.systemEnding();
    },
    setTimer: (cb, ms) => {
      timers.set(next, { cb, at: now + ms });
      return next++;
    },
    clearTimer: (t) => timers.delete(t as number),
  });
  const advance = (ms: number) => {
    now += ms;
    for (const [id, t] of [...timers]) {
      if (t.at > now) continue;
      timers.delete(id);
      t.cb();
    }
  };
  return { calls, exits, shutdown, sessionEnd, advance, timers };
}

describe('Windows logoff', () => {
  it('query-session-end only prepares: nothing is closed, and a cancelled logoff resumes work', () => {
    const { calls, shutdown, sessionEnd, advance } = harness();
    sessionEnd.querySessionEnd();
    expect(calls).toEqual(['prepare']);
    expect(shutdown.closing).toBe(false); // the core is still usable
    advance(RESUME_AFTER_CANCELLED_LOGOFF_MS - 1);
    expect(calls).toEqual(['prepare']);
    advance(1);
    expect(calls).toEqual(['prepare', 'resume']);
    expect(sessionEnd.state).toBe('running');
    expect(shutdown.closing).toBe(false);
  });

  it('session-end commits to quitting, once, and nothing resumes afterwards', async () => {
    const { calls, exits, shutdown, sessionEnd, advance, timers } = harness();
    sessionEnd.querySessionEnd();
    sessionEnd.querySessionEnd(); // Windows may ask twice: one prepare
    sessionEnd.sessionEnd();
    sessionEnd.sessionEnd();
    expect(calls).toEqual(['prepare', 'commit', 'close']);
    expect(timers.size).toBe(0);
    advance(RESUME_AFTER_CANCELLED_LOGOFF_MS * 2);
    expect(calls).not.toContain('resume');
    await shutdown.begin('system');
    expect(exits).toEqual([0]);
    expect(shutdown.beforeQuit()).toBe('allow');
  });

  it('a session-end without a query (a forced logoff) commits at once', () => {
    const { calls, sessionEnd } = harness();
    sessionEnd.sessionEnd();
    expect(calls).toEqual(['commit', 'close']);
  });
});
