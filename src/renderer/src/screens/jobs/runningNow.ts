/**
 * A worker holds a few claimed jobs in line behind the one it runs, and the table calls them all
 * "running": with one worker the Jobs tile said "3 running". The tile counts what the workers can
 * run at once and the rest as next in line.
 */

/**
 * How many jobs are being worked on, and how many wait claimed behind them. Without the worker
 * count (not known yet) every running job counts as running.
 */
export function runningNow(running: number, workersAlive: number | undefined): { now: number; inLine: number } {
  if (!workersAlive || running <= workersAlive) return { now: running, inLine: 0 };
  return { now: workersAlive, inLine: running - workersAlive };
}
