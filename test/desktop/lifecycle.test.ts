/**
 * The Electron shell's start and quit sequencing (src/main/electron/startup.ts, shutdown.ts),
 * run under plain Node: Electron's events are plain calls here, the core's close is a promise.
 */
import { describe, expect, it } from 'vitest';
import { runStartup } from '../../src/main/electron/startup';
import { Shutdown, SHUTDOWN_TIMING } from '../../src/main/electron/shutdown';

describe('runStartup', () => {
  const ready = () => Promise.resolve();

  it('a throw inside start() reaches fatal (whenReady().then(start, fatal) lost it: no window, no dialog)', async () => {
    const errors: unknown[] = [];
    await runStartup({
      whenReady: ready,
      start: () => {
        throw new Error('database module missing');
      },
      fatal: (e) => errors.push(e),
    });
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toBe('database module missing');
  });

  it('an async start() that rejects, and a failing whenReady, reach fatal once each', async () => {
    const errors: unknown[] = [];
    await runStartup({ whenReady: ready, start: async () => Promise.reject(new Error('late')), fatal: (e) => errors.push(e) });
    await runStartup({ whenReady: () => Promise.reject(new Error('no ready')), start: () => {}, fatal: (e) => errors.push(e) });
    expect(errors.map((e) => (e as Error).message)).toEqual(['late', 'no ready']);
  });

  it('a good start calls no fatal', async () => {
    let started = false;
    const errors: unknown[] = [];
    await runStartup({ whenReady: ready, start: () => void (started = true), fatal: (e) => errors.push(e) });
    expect([started, errors]).toEqual([true, []]);
  });
});

function harness(close: (graceMs: number) => Promise<void>, timing = SHUTDOWN_TIMING) {
  const calls: string[] = [];
  const exits: number[] = [];
  const shutdown = new Shutdown({
    close: (graceMs) => {
      calls.push(`close ${graceMs}`);
      return close(graceMs);
    },
    exit: (code) => exits.push(code),
    log: { error: (m) => calls.push(`log ${m}`) },
    timing,
  });
  return { shutdown, calls, exits };
}

describe('Shutdown', () => {
  it('user quit: holds before-quit while jobs get their grace and the database closes, then exits', async () => {
    let finish!: () => void;
    const { shutdown, calls, exits } = harness(() => new Promise<void>((r) => (finish = r)));
    expect(shutdown.closing).toBe(false);
    expect(shutdown.beforeQuit()).toBe('prevent');
    expect(shutdown.closing).toBe(true); // every handler now refuses to touch the core
    expect(shutdown.beforeQuit()).toBe('prevent'); // a second Quit joins, it does not close twice
    expect(calls).toEqual([`close ${SHUTDOWN_TIMING.user.graceMs}`]);
    expect(exits).toEqual([]);
    finish();
    await shutdown.begin('user');
    expect(exits).toEqual([0]);
    expect(shutdown.state).toBe('closed');
    expect(shutdown.beforeQuit()).toBe('allow');
  });

  it('system end (logout, shutdown): a short close, and before-quit is never held (macOS would cancel the logout)', async () => {
    const { shutdown, calls, exits } = harness(() => new Promise<void>(() => {}), {
      ...SHUTDOWN_TIMING,
      system: { graceMs: 5, deadlineMs: 30 },
    });
    shutdown.systemEnding();
    expect(calls).toEqual(['close 5']);
    expect(shutdown.beforeQuit()).toBe('allow');
    shutdown.systemEnding(); // query-session-end then session-end on Windows: one close
    await shutdown.begin('system');
    expect(calls).toEqual(['close 5', 'log closing took longer than 30 ms; exiting anyway']);
    expect(exits).toEqual([0]);
  });

  it('the system grace is short and its deadline is within what an OS allows at logout', () => {
    expect(SHUTDOWN_TIMING.system.graceMs).toBeLessThan(SHUTDOWN_TIMING.user.graceMs);
    expect(SHUTDOWN_TIMING.system.deadlineMs).toBeLessThanOrEqual(2000);
  });

  it('a close that fails still exits, and says why', async () => {
    const { shutdown, calls, exits } = harness(() => Promise.reject(new Error('disk full')));
    await shutdown.begin('user');
    expect(calls).toContain('log closing failed: disk full');
    expect(exits).toEqual([0]);
  });

  it('quitting before any library was opened just exits', async () => {
    const exits: number[] = [];
    const shutdown = new Shutdown({ close: null, exit: (c) => exits.push(c) });
    expect(shutdown.beforeQuit()).toBe('prevent');
    await shutdown.begin('user');
    expect(exits).toEqual([0]);
  });
});
