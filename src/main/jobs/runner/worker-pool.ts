/**
 * Worker supervision: a number of slots, each with at most one live process. Spawns and
 * respawns (with a crash-loop backoff), tracks readiness and liveness (pings), kills on request,
 * and reports every end of a process as a typed reason — what the adapter saw (exited, crashed,
 * out of memory, failed to launch) or the kill the runtime asked for. It knows nothing of jobs.
 *
 * The number of slots changes live (`resize`): new slots start at once; slots past the new size
 * retire — they are claimed for no more, and their process is asked to exit once whoever holds
 * their jobs says they are idle (`dismiss`), so a job in hand is finished, never cut off.
 *
 * All workers share one memory budget (src/shared/worker-budget.ts): the pool runs no more of
 * them than it allows, whatever it is asked for, and starts each with its share as heap limit. A
 * process keeps the limit it started with; after the count grows, older ones keep their larger
 * limit until they are replaced.
 */
import os from 'node:os';
import { workerBudget, type WorkerBudget } from '../../../shared/worker-budget';
import {
  readMessage,
  workerToMainSchema,
  type HeapReport,
  type MainToWorker,
  type WorkerToMain,
} from '../../../shared/worker-protocol';
import type { SpawnWorker, WorkerExit, WorkerProcess } from '../worker-process';
import type { Logger } from '../../logger';
import { cancel, systemClock, type Cancel, type Clock } from '../clock';
import { exitKindWithHeap, nearHeapLimit } from './worker-heap';

/** Why the runtime killed a process (`protocol`: it sent a message that is not the protocol's). */
export type KillReason = 'cancel' | 'timeout' | 'lost' | 'unresponsive' | 'protocol' | 'shutdown' | 'retired';

/**
 * How a slot's process ended: a kill the runtime asked for, or what its adapter reported (a
 * crash with the heap near its limit reads as out of memory). `heap`: its last report of its
 * heap, when that was near the limit; `heapMb`: the limit it was started with.
 */
export type SlotExit = (
  { kind: 'killed'; reason: KillReason; exit: WorkerExit } | { kind: WorkerExit['kind']; exit: WorkerExit }
) & { heap?: HeapReport; heapMb: number };

export interface WorkerSlot {
  readonly index: number;
  /** The lease owner of every job this slot runs: `<runner id>/w<index>`. */
  readonly owner: string;
  /** True from the process's `ready` message until it ends or the slot retires. */
  readonly ready: boolean;
  readonly alive: boolean;
  /** Past the pool's size: it takes no more jobs, and its process leaves once idle. */
  readonly retiring?: boolean;
}

interface SlotState extends WorkerSlot {
  proc: WorkerProcess | null;
  ready: boolean;
  alive: boolean;
  retiring: boolean;
  /** Its process said `ready` (it is `ready` unless retiring). */
  launched: boolean;
  /** The heap limit its process was started with. */
  heapMb: number;
  lastPongAt: number;
  /** What its process last said about its heap (pongs, progress, reports near the limit). */
  lastHeap: HeapReport | null;
  consecutiveCrashes: number;
  /** Its last process could not be started, or ended before it was ready; cleared when one gets ready. */
  launchFailed: boolean;
  killReason: KillReason | null;
  respawnTimer?: Cancel;
  exited: Promise<void>;
  onExited: () => void;
}

export interface WorkerPoolOptions {
  /** How many workers are asked for (the memory budget may allow fewer). */
  size: number;
  runnerId: string;
  spawn: SpawnWorker;
  /** The most heap a worker gets (the budget may give it less). */
  heapMb: number;
  /** The machine's memory the budget is taken from, in MB (default: os.totalmem()). */
  totalMemoryMb?: number;
  env: Record<string, string>;
  /** A busy process that has not answered a ping for this long is killed. */
  unresponsiveMs: number;
  /** Respawn backoffs, liveness and the kill after an unanswered shutdown run on it (default: the system's). */
  clock?: Clock;
  log: Logger;
  /** What happened to the pool's processes, told as one typed event. */
  onEvent(e: PoolEvent): void;
}

export type PoolEvent =
  | { kind: 'ready'; slot: WorkerSlot }
  /** A message from the slot's process, parsed by the protocol's schema (pongs stay in the pool). */
  | { kind: 'message'; slot: WorkerSlot; msg: WorkerToMain }
  /** After the process is gone; the slot is respawned unless the pool is stopping. */
  | { kind: 'exit'; slot: WorkerSlot; exit: SlotExit }
  /** A process could not be started at all (counted as a machinery error by the caller). */
  | { kind: 'spawn_failed'; message: string };

export class WorkerPool {
  private readonly state: SlotState[] = [];
  private started = false;
  private stopping = false;
  private pingSeq = 0;
  private budget: WorkerBudget;
  private readonly clock: Clock;

  constructor(private readonly o: WorkerPoolOptions) {
    this.clock = o.clock ?? systemClock;
    this.budget = workerBudget(o.size, o.totalMemoryMb ?? machineMemoryMb(), o.heapMb);
    for (let index = 0; index < this.budget.workers; index++) this.state.push(this.newSlot(index));
  }

  /** What the budget allows for the size last asked for. */
  get memoryBudget(): WorkerBudget {
    return { ...this.budget };
  }

  private newSlot(index: number): SlotState {
    return {
      index,
      owner: `${this.o.runnerId}/w${index}`,
      proc: null,
      ready: false,
      alive: false,
      retiring: false,
      launched: false,
      heapMb: this.budget.heapMb,
      lastPongAt: 0,
      lastHeap: null,
      consecutiveCrashes: 0,
      launchFailed: false,
      killReason: null,
      exited: Promise.resolve(),
      onExited: () => {},
    };
  }

  /** Every slot with a process or on its way to one, retiring ones included (indexes are dense). */
  get slots(): readonly WorkerSlot[] {
    return this.state;
  }

  /** How many slots the pool keeps (retiring ones not counted). */
  get size(): number {
    return this.state.filter((s) => !s.retiring).length;
  }

  start(): void {
    this.started = true;
    for (const slot of this.state) if (!slot.retiring) this.spawn(slot);
  }

  /**
   * Changes how many slots the pool keeps. Growing starts new processes (or keeps a retiring slot
   * whose process has not left yet); shrinking retires the highest slots and returns those that
   * just started retiring: the caller gives back what they hold and `dismiss`es each once idle.
   */
  resize(size: number): WorkerSlot[] {
    this.budget = workerBudget(size, this.budget.totalMb, this.o.heapMb);
    const target = this.budget.workers;
    const retired: WorkerSlot[] = [];
    for (let index = 0; index < Math.max(target, this.state.length); index++) {
      let slot = this.state[index];
      if (index < target) {
        if (!slot) {
          slot = this.newSlot(index);
          this.state.push(slot);
          if (this.started) this.spawn(slot);
        } else if (slot.retiring) {
          slot.retiring = false;
          slot.ready = slot.launched;
          // Its process may already have been asked to leave: it is replaced when it does.
          if (!slot.proc && this.started) this.spawn(slot);
        }
      } else if (!slot.retiring) {
        slot.retiring = true;
        slot.ready = false;
        cancel(slot.respawnTimer);
        retired.push(slot);
      }
    }
    this.prune();
    return retired;
  }

  /** A retiring slot holds nothing any more: its process is asked to exit (and killed if it does not). */
  dismiss(slot: WorkerSlot): void {
    const s = this.of(slot);
    if (!s?.retiring) return;
    const proc = s.proc;
    if (!proc) return this.prune();
    s.killReason ??= 'retired';
    proc.send({ t: 'shutdown' });
    this.killUnlessGone(proc);
  }

  /** Retired slots whose process is gone leave the end of the list (so indexes stay dense). */
  private prune(): void {
    while (this.state.at(-1)?.retiring && !this.state.at(-1)!.proc) this.state.pop();
  }

  readyCount(): number {
    return this.state.filter((s) => s.ready).length;
  }

  /**
   * Slots by what the archivist should be told: ready, starting (a process on its way, or a
   * replacement after a crash or a kill), or failed (its last process could not be started or
   * ended before it was ready — an error until a later one gets ready).
   */
  health(): { ready: number; starting: number; failed: number } {
    const kept = this.state.filter((s) => !s.retiring);
    const ready = kept.filter((s) => s.ready).length;
    const failed = kept.filter((s) => !s.ready && s.launchFailed).length;
    return { ready, starting: kept.length - ready - failed, failed };
  }

  send(slot: WorkerSlot, msg: MainToWorker): void {
    this.of(slot)?.proc?.send(msg);
  }

  kill(slot: WorkerSlot, reason: KillReason): void {
    const s = this.of(slot);
    if (!s?.proc) return;
    s.killReason ??= reason;
    s.proc.kill();
  }

  /** A slot that finished a job cleanly is out of any crash loop. */
  succeeded(slot: WorkerSlot): void {
    const s = this.of(slot);
    if (s) s.consecutiveCrashes = 0;
  }

  /** Pings every process; kills a busy one that has stopped answering (a hung handler). */
  ping(isBusy: (slot: WorkerSlot) => boolean, now = this.clock.now()): void {
    for (const s of this.state) {
      if (!s.proc) continue;
      s.proc.send({ t: 'ping', seq: ++this.pingSeq });
      if (isBusy(s) && now - s.lastPongAt > this.o.unresponsiveMs) {
        this.o.log.warn(`worker ${s.owner} has not answered for ${now - s.lastPongAt} ms; killing it`);
        this.kill(s, 'unresponsive');
      }
    }
  }

  /**
   * Stops every process: idle ones are asked to exit, busy ones killed. Resolves when all have
   * exited (and their onExit has run) or after `waitMs`.
   */
  async stop(isBusy: (slot: WorkerSlot) => boolean, waitMs = 3000): Promise<void> {
    this.stopping = true;
    for (const s of this.state) {
      cancel(s.respawnTimer);
      const proc = s.proc;
      if (!proc) continue;
      s.killReason = 'shutdown';
      if (isBusy(s)) proc.kill();
      else {
        proc.send({ t: 'shutdown' });
        this.killUnlessGone(proc);
      }
    }
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(this.state.map((s) => s.exited)),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs))),
    ]);
    clearTimeout(timer);
  }

  /** The slot's state; none for a slot that retired and left (its handle must not reach a new slot at its index). */
  private of(slot: WorkerSlot): SlotState | undefined {
    const s = this.state[slot.index];
    return s === slot ? s : undefined;
  }

  private spawn(slot: SlotState): void {
    if (this.stopping || slot.retiring) return;
    let proc: WorkerProcess;
    try {
      slot.heapMb = this.budget.heapMb;
      proc = this.o.spawn({ heapMb: slot.heapMb, name: slot.owner, env: { ...this.o.env } });
    } catch (err) {
      this.o.onEvent({ kind: 'spawn_failed', message: `Could not start a worker process: ${(err as Error).message}` });
      slot.launchFailed = true;
      slot.consecutiveCrashes++; // back off: a spawn that throws would otherwise retry in a tight loop
      this.scheduleRespawn(slot);
      return;
    }
    slot.proc = proc;
    slot.alive = true;
    slot.ready = false;
    slot.launched = false;
    slot.killReason = null;
    slot.lastPongAt = this.clock.now();
    slot.lastHeap = null;
    slot.exited = new Promise((resolve) => (slot.onExited = resolve));
    proc.onMessage((raw) => {
      if (slot.proc !== proc) return;
      const read = readMessage(workerToMainSchema, raw);
      if (!read.ok) {
        // Nothing it says can be trusted now, results included: replace it. Its running job fails
        // (retryable) and the jobs waiting behind go back to the queue.
        this.o.log.error(`worker ${slot.owner} sent a message that is not the protocol's (${read.problem}); replacing it`);
        return this.kill(slot, 'protocol');
      }
      const msg = read.msg;
      slot.lastPongAt = this.clock.now();
      if (msg.t === 'heap') return void (slot.lastHeap = { usedMb: msg.usedMb, limitMb: msg.limitMb });
      if ((msg.t === 'pong' || msg.t === 'progress') && msg.heap) slot.lastHeap = msg.heap;
      if (msg.t === 'ready') {
        slot.launched = true;
        slot.ready = !slot.retiring;
        slot.launchFailed = false;
        this.o.onEvent({ kind: 'ready', slot });
      } else if (msg.t !== 'pong') this.o.onEvent({ kind: 'message', slot, msg });
    });
    proc.onExit((exit) => {
      if (slot.proc !== proc) return;
      const wasReady = slot.ready;
      slot.proc = null;
      slot.alive = false;
      slot.ready = false;
      slot.launched = false;
      const reason = slot.killReason;
      // A process that ends before it ever said it was ready did not launch, whatever its code.
      const ended = exitKindWithHeap(exit.kind, slot.lastHeap);
      const kind = reason ? 'killed' : !wasReady && ended !== 'exited' ? 'failed_to_launch' : ended;
      slot.launchFailed = kind === 'failed_to_launch';
      const heap = nearHeapLimit(slot.lastHeap) ? { heap: slot.lastHeap } : {};
      const heapMb = slot.heapMb;
      const slotExit: SlotExit =
        kind === 'killed' ? { kind, reason: reason!, exit, heapMb, ...heap } : { kind, exit, heapMb, ...heap };
      if (reason !== 'shutdown' && reason !== 'retired') {
        // Only real crashes (hangs, nonsense) count towards the crash-loop backoff, not kills we asked for.
        if (!reason || reason === 'unresponsive' || reason === 'protocol') slot.consecutiveCrashes++;
        if (!reason)
          this.o.log.warn(`worker ${slot.owner} ended (${kind}, code ${exit.code}, signal ${exit.signal}); replacing it`);
      }
      this.o.onEvent({ kind: 'exit', slot, exit: slotExit });
      if (slot.retiring) this.prune();
      // A slot kept after all while its process was leaving (grown again) gets a new one.
      else if (reason !== 'shutdown') this.scheduleRespawn(slot);
      slot.onExited();
    });
  }

  private scheduleRespawn(slot: SlotState): void {
    if (this.stopping) return;
    // Crash-loop backoff: immediately the first time, then 0.5 s doubling up to 30 s.
    const n = slot.consecutiveCrashes;
    const delay = n <= 1 ? 0 : Math.min(30_000, 500 * 2 ** (n - 2));
    // The first replacement waits for nothing: the next turn, not a timer (no clock has to move for it).
    if (delay === 0) {
      const next = setImmediate(() => this.spawn(slot));
      slot.respawnTimer = () => clearImmediate(next);
    } else slot.respawnTimer = this.clock.after(delay, () => this.spawn(slot));
  }

  /** A process asked to exit gets a second to do so before it is killed. */
  private killUnlessGone(proc: WorkerProcess): void {
    this.clock.after(1000, () => proc.kill(), { background: true });
  }
}

/** The machine's memory, in MB. */
export function machineMemoryMb(): number {
  return Math.floor(os.totalmem() / (1024 * 1024));
}
