/**
 * Job workers run below normal OS scheduling priority, set where they are spawned (both adapters:
 * ./fork-worker.ts and src/main/electron/utility-worker.ts). Background work must not take the CPU
 * from the user: during a 5,000-photo import on two cores, the library grid's long tasks were 89 %
 * waiting for a CPU and 11 % the page's own work (the grid-frames trace, long-task-cpu.ts). Below
 * normal, the scheduler runs the window first and gives the workers all the CPU nobody else
 * wants, so an import on an otherwise idle machine is not slower; on a busy one it is.
 *
 * Set from outside, for every thread: on Linux a priority belongs to a thread, and a process that
 * lowered itself at startup left the threads it had already started (V8's) at normal priority.
 * On Linux with autogroup scheduling, a process in a session of its own (the fork adapter's
 * workers) is scheduled as a group against other sessions; that group's priority is lowered too.
 * A failure to set it is logged and harmless: the worker then runs at normal priority.
 */
import fs from 'node:fs';
import os from 'node:os';

/** How far below this process a worker runs: "below normal" (Windows' BELOW_NORMAL class, Unix nice +10). */
export const WORKER_NICENESS = os.constants.priority.PRIORITY_BELOW_NORMAL - os.constants.priority.PRIORITY_NORMAL;

/** The least favoured priority Node can set (19 on Unix, Windows' IDLE class). */
const LOWEST = os.constants.priority.PRIORITY_LOW;

/** The priority a worker started by this process gets: WORKER_NICENESS below this one's, never past the lowest. */
export function workerPriority(): number {
  return Math.min(LOWEST, os.getPriority() + WORKER_NICENESS);
}

/** The process's threads (Linux: each has its own priority), the process's own id first; elsewhere the process. */
function threadsOf(pid: number): number[] {
  if (process.platform !== 'linux') return [pid];
  try {
    const tids = fs.readdirSync(`/proc/${pid}/task`).map(Number);
    return [pid, ...tids.filter((t) => t !== pid)];
  } catch {
    return [pid];
  }
}

/** Linux's autogroup of a process ('/autogroup-12'), or null where there is none. */
function autogroupOf(pid: number | 'self'): string | null {
  try {
    return /^(\/autogroup-\d+)/.exec(fs.readFileSync(`/proc/${pid}/autogroup`, 'utf8'))?.[1] ?? null;
  } catch {
    return null;
  }
}

/**
 * Lowers process `pid` (a worker just spawned, or the calling process itself) to workerPriority(),
 * every thread of it. Never raises a thread that already runs lower. The process's own id is set
 * first, so threads it starts meanwhile inherit the lower priority.
 */
export function lowerWorkerPriority(pid: number, warn: (msg: string) => void = console.warn): void {
  const target = workerPriority();
  try {
    for (const tid of threadsOf(pid)) {
      try {
        if (os.getPriority(tid) < target) os.setPriority(tid, target);
      } catch (err) {
        // A thread that ended since the list was read is no failure; the process itself is.
        if (tid === pid || (err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
      }
    }
    const group = autogroupOf(pid);
    if (group && group !== autogroupOf('self')) fs.writeFileSync(`/proc/${pid}/autogroup`, String(target));
  } catch (err) {
    warn(`Could not lower the priority of worker process ${pid}; it runs at normal priority: ${(err as Error).message}`);
  }
}
