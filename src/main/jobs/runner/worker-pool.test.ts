import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeSpawner, type FakeSpawner } from '../../../../test/support/fake-worker';
import { ManualClock, nextTurn } from '../../../../test/support/manual-clock';
import { silentLogger } from '../../logger';
import { WorkerPool, type SlotExit, type WorkerSlot } from './worker-pool';
import { exitKindOf } from '../worker-process';
import type { WorkerToMain } from '../../../shared/worker-protocol';

// The pool's timers (respawn backoff, liveness, the kill after an unanswered shutdown) run on this
// clock: a test moves it on to show what did or did not happen, instead of sleeping.
let clock: ManualClock;
beforeEach(() => {
  clock = new ManualClock();
});

/** Moves the clock on by `ms` (firing what falls due), then lets the fake processes' answers arrive. */
async function settle(ms = 0): Promise<void> {
  clock.advance(ms);
  for (let i = 0; i < 5; i++) await nextTurn();
}

/** Waits for something that must happen; the real-time deadline is a safety net, not a measure. */
async function until(cond: () => boolean, what: string, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await settle();
  }
}

function pool(f: FakeSpawner, size = 1, unresponsiveMs = 50, memory = { heapMb: 64, totalMemoryMb: 64 * 1024 }) {
  const exits: { slot: WorkerSlot; exit: SlotExit }[] = [];
  const spawnErrors: string[] = [];
  const messages: WorkerToMain[] = [];
  let readies = 0;
  const p = new WorkerPool({
    size,
    runnerId: 'host:1:abc',
    spawn: f.spawn,
    ...memory,
    env: {},
    unresponsiveMs,
    clock,
    log: silentLogger,
    onEvent: (e) => {
      if (e.kind === 'ready') readies++;
      else if (e.kind === 'message') messages.push(e.msg);
      else if (e.kind === 'exit') exits.push({ slot: e.slot, exit: e.exit });
      else spawnErrors.push(e.message);
    },
  });
  return { p, exits, spawnErrors, messages, readies: () => readies };
}

let stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const s of stops) await s();
  stops = [];
});

describe('WorkerPool', () => {
  it('starts one process per slot, named after the runner, and reports them ready', async () => {
    const f = fakeSpawner();
    const { p, readies } = pool(f, 2);
    stops.push(() => p.stop(() => false, 100));
    p.start();
    await until(() => p.readyCount() === 2, 'two ready workers');
    expect(readies()).toBe(2);
    expect(f.workers.map((w) => w.name)).toEqual(['host:1:abc/w0', 'host:1:abc/w1']);
    expect(p.slots.map((s) => s.owner)).toEqual(['host:1:abc/w0', 'host:1:abc/w1']);
  });

  it('reports each end of a process as a typed reason, and replaces the process', async () => {
    const f = fakeSpawner();
    const { p, exits } = pool(f);
    stops.push(() => p.stop(() => false, 100));
    p.start();
    await until(() => p.readyCount() === 1, 'ready');
    f.workers[0].exit({ kind: 'out_of_memory', signal: 'SIGABRT' });
    await until(() => exits.length === 1 && p.readyCount() === 1, 'an exit and a replacement');
    expect(exits[0].exit.kind).toBe('out_of_memory');
    expect(f.workers).toHaveLength(2);

    p.kill(p.slots[0], 'timeout');
    await until(() => exits.length === 2, 'the kill');
    expect(exits[1].exit).toMatchObject({ kind: 'killed', reason: 'timeout' });
  });

  it('a process that ends before it is ready failed to launch; a crash loop backs off', async () => {
    const f = fakeSpawner();
    f.becomeReady = false;
    const { p, exits } = pool(f);
    stops.push(() => p.stop(() => false, 100));
    p.start();
    await until(() => f.workers.length === 1, 'a spawn');
    f.workers[0].exit({ kind: 'crashed', code: 1 });
    await until(() => exits.length === 1, 'the exit');
    expect(exits[0].exit.kind).toBe('failed_to_launch');
    // The first replacement is immediate, the next ones wait (0.5 s, 1 s, …).
    await until(() => f.workers.length === 2, 'the first replacement');
    f.workers[1].exit({ kind: 'crashed', code: 1 });
    await until(() => exits.length === 2, 'the second exit');
    await settle(499);
    expect(f.workers).toHaveLength(2);
    await settle(1);
    expect(f.workers).toHaveLength(3);
  });

  it('a spawn that throws is reported and retried after a pause', async () => {
    const f = fakeSpawner();
    f.failNextSpawn = true;
    const { p, spawnErrors } = pool(f);
    stops.push(() => p.stop(() => false, 100));
    p.start();
    expect(spawnErrors).toEqual(['Could not start a worker process: spawn EAGAIN']);
    await until(() => p.readyCount() === 1, 'a later spawn');
  });

  it('a worker still starting is starting, not failed; only one that could not start is failed', async () => {
    const f = fakeSpawner();
    f.becomeReady = false;
    const { p, exits } = pool(f, 2);
    stops.push(() => p.stop(() => false, 100));
    p.start();
    await until(() => f.workers.length === 2, 'two spawns');
    expect(p.health()).toEqual({ ready: 0, starting: 2, failed: 0 });
    // One ends before it ever said ready: it failed to start (until a replacement gets ready).
    f.workers[0].exit({ kind: 'crashed', code: 1 });
    await until(() => p.health().failed === 1, 'the failed launch');
    expect(p.health()).toEqual({ ready: 0, starting: 1, failed: 1 });
    // Its replacement (spawned at once) stays failed until it is ready; the next one is.
    await until(() => f.workers.length === 3, 'the replacement');
    expect(p.health()).toEqual({ ready: 0, starting: 1, failed: 1 });
    f.becomeReady = true;
    f.workers[2].exit({ kind: 'crashed', code: 1 });
    await until(() => exits.length === 2, 'the second failed launch');
    await settle(500); // the crash loop's first pause
    await until(() => p.readyCount() === 1, 'a later replacement ready');
    expect(p.health()).toEqual({ ready: 1, starting: 1, failed: 0 });
  });

  it('a spawn that throws counts as failed until a later spawn gets ready; a crash after ready is a restart', async () => {
    const f = fakeSpawner();
    f.failNextSpawn = true;
    const { p } = pool(f);
    stops.push(() => p.stop(() => false, 100));
    p.start();
    expect(p.health()).toEqual({ ready: 0, starting: 0, failed: 1 });
    await until(() => p.readyCount() === 1, 'a later spawn');
    expect(p.health()).toEqual({ ready: 1, starting: 0, failed: 0 });
    f.becomeReady = false;
    f.workers.at(-1)!.exit({ kind: 'crashed', code: 1 });
    await until(() => p.readyCount() === 0, 'the crash');
    expect(p.health()).toEqual({ ready: 0, starting: 1, failed: 0 });
  });

  it('kills a busy process that stops answering pings, not an idle one', async () => {
    const f = fakeSpawner();
    const { p, exits } = pool(f, 2, 30);
    stops.push(() => p.stop(() => false, 100));
    p.start();
    await until(() => p.readyCount() === 2, 'ready');
    f.answerPings = false;
    await settle(60);
    p.ping((slot) => slot.index === 1);
    await until(() => exits.length === 1, 'the kill');
    expect(exits[0]).toMatchObject({ slot: { index: 1 }, exit: { kind: 'killed', reason: 'unresponsive' } });
  });

  it.each([
    ['not an object', 'done'],
    ['no such message', { t: 'finished', jobId: 1 }],
    ['a result with a job id that is not a number', { t: 'result', jobId: '1', attempt: 1, ok: true, output: {} }],
    ['a failure without its error', { t: 'result', jobId: 1, attempt: 1, ok: false }],
    ['a batch with one bad result', { t: 'results', results: [{ t: 'result', jobId: 1, attempt: 1, ok: 'yes' }] }],
  ])('a message that is not the protocol (%s) never reaches the runner: the process is replaced', async (_what, raw) => {
    const f = fakeSpawner();
    const { p, exits, messages } = pool(f);
    stops.push(() => p.stop(() => false, 100));
    p.start();
    await until(() => p.readyCount() === 1, 'ready');
    f.workers[0].say({ t: 'progress', jobId: 1, attempt: 1, progress: 0.5 });
    f.workers[0].say(raw);
    await until(() => exits.length === 1 && p.readyCount() === 1, 'the kill and a replacement');
    expect(exits[0].exit).toMatchObject({ kind: 'killed', reason: 'protocol' });
    expect(messages).toEqual([{ t: 'progress', jobId: 1, attempt: 1, progress: 0.5 }]);
    expect(f.workers).toHaveLength(2);
  });

  it('stop: idle processes are asked to exit, busy ones killed, and none is replaced', async () => {
    const f = fakeSpawner();
    const { p, exits } = pool(f, 2);
    p.start();
    await until(() => p.readyCount() === 2, 'ready');
    await p.stop((slot) => slot.index === 0);
    expect(f.workers[0].killed).toBe(true);
    expect(f.sent.filter((s) => s.msg.t === 'shutdown').map((s) => s.name)).toEqual(['host:1:abc/w1']);
    expect(exits.map((e) => e.exit)).toEqual([
      expect.objectContaining({ kind: 'killed', reason: 'shutdown' }),
      expect.objectContaining({ kind: 'killed', reason: 'shutdown' }),
    ]);
    await settle(60_000);
    expect(f.workers).toHaveLength(2);
  });
});

describe('exitKindOf (what an adapter reports)', () => {
  it('tells a clean exit, an out-of-memory abort and another crash apart', () => {
    expect(exitKindOf(0, null, '')).toBe('exited');
    expect(exitKindOf(null, 'SIGABRT', 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory')).toBe(
      'out_of_memory',
    );
    expect(
      exitKindOf(134, null, 'FATAL ERROR: Ineffective mark-compacts near heap limit ... JavaScript heap out of memory'),
    ).toBe('out_of_memory');
    // An abort that is not V8's heap report (a native assertion) is a crash.
    expect(exitKindOf(null, 'SIGABRT', 'Assertion failed: (x), function y')).toBe('crashed');
    expect(exitKindOf(null, 'SIGKILL', '')).toBe('crashed');
    expect(exitKindOf(1, null, '')).toBe('crashed');
  });

  it('resizes live: new slots start, retiring ones take nothing and leave only when dismissed', async () => {
    const f = fakeSpawner();
    const { p, exits } = pool(f, 1);
    stops.push(() => p.stop(() => false, 100));
    p.start();
    await until(() => p.readyCount() === 1, 'one ready worker');

    expect(p.resize(3)).toEqual([]);
    await until(() => p.readyCount() === 3, 'three ready workers');
    expect(p.size).toBe(3);
    expect(f.workers.map((w) => w.name)).toEqual(['host:1:abc/w0', 'host:1:abc/w1', 'host:1:abc/w2']);

    const retired = p.resize(1);
    expect(retired.map((s) => s.index)).toEqual([1, 2]);
    // Claimed for no more (not ready), but their processes stay until dismissed: a job in hand finishes.
    expect(p.slots.map((s) => [s.ready, s.retiring])).toEqual([
      [true, false],
      [false, true],
      [false, true],
    ]);
    expect(p.health()).toEqual({ ready: 1, starting: 0, failed: 0 });
    await settle(60_000);
    expect(f.workers.filter((w) => w.killed)).toHaveLength(0);

    p.dismiss(retired[1]);
    await until(() => p.slots.length === 2, 'the dismissed slot to leave');
    expect(exits.map((e) => e.exit)).toMatchObject([{ kind: 'killed', reason: 'retired' }]);
    // A slot below it still retiring keeps the list dense until it leaves too.
    p.dismiss(retired[0]);
    await until(() => p.slots.length === 1, 'the other retiring slot to leave');
    await settle(60_000);
    expect(f.workers).toHaveLength(3); // neither was replaced

    // Grown again: a new process at the freed index; a stale handle to the old slot reaches nothing.
    p.resize(2);
    await until(() => p.readyCount() === 2, 'two ready workers');
    expect(f.workers).toHaveLength(4);
    p.kill(retired[0], 'cancel');
    await settle(60_000);
    expect(f.workers[3].killed).toBe(false);
  });

  it('a slot kept after all while its process was leaving gets a new process', async () => {
    const f = fakeSpawner();
    const { p } = pool(f, 2);
    stops.push(() => p.stop(() => false, 100));
    p.start();
    await until(() => p.readyCount() === 2, 'two ready workers');
    const [slot] = p.resize(1);
    p.dismiss(slot);
    p.resize(2);
    await until(() => p.readyCount() === 2 && f.workers.length === 3, 'a replacement for w1');
    expect(p.slots.map((s) => s.retiring)).toEqual([false, false]);
  });

  it('runs no more workers than the memory budget allows, each started with its share as heap limit', async () => {
    const f = fakeSpawner();
    const heaps: number[] = [];
    const spawn = f.spawn;
    f.spawn = (opts) => (heaps.push(opts.heapMb), spawn(opts));
    // 2 GB of memory: workers may use 1 GB, at least 512 MB each — two, with 256 MB heaps.
    const { p } = pool(f, 4, 50, { heapMb: 1024, totalMemoryMb: 2048 });
    stops.push(() => p.stop(() => false, 100));
    p.start();
    await until(() => p.readyCount() === 2, 'two ready workers');
    expect(p.slots).toHaveLength(2);
    expect(heaps).toEqual([256, 256]);
    expect(p.memoryBudget).toMatchObject({ requested: 4, workers: 2, maxWorkers: 2, heapMb: 256 });
    // Asking for more does not start more.
    expect(p.resize(8)).toEqual([]);
    await settle(60_000);
    expect(f.workers).toHaveLength(2);
    // One alone gets the whole budget's half (512 MB), for the processes started from now on.
    expect(p.resize(1).map((s) => s.index)).toEqual([1]);
    expect(p.memoryBudget).toMatchObject({ workers: 1, heapMb: 512 });
  });
});
