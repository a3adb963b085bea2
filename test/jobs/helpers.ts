/** Helpers for the job-runtime tests: runner OS processes, raw connections, audit trails, markers. */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Core } from '../../src/main/core/core';
import { appPaths } from '../../src/main/app-paths';
import type { JobRow } from '../../src/main/jobs/store/rows';
import { openTestCore, tempDir, waitFor } from '../support/core';

export { openTestCore, tempDir, waitFor };

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const root = appPaths().root;
export const CLI = path.join(root, 'src', 'main', 'cli', 'circa-worker.ts');

export interface RunnerProcess {
  proc: ChildProcess;
  pid: number;
  /** Resolves with the exit code/signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
}

/** Starts `circa-worker` from source as a real OS process (diagnostic job types on). */
export function startRunner(args: string[], opts: { detached?: boolean } = {}): RunnerProcess {
  const proc = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    cwd: root,
    env: { ...process.env, CIRCA_DIAGNOSTIC_JOBS: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: opts.detached ?? false,
  });
  let out = '';
  proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { proc, pid: proc.pid!, exited, output: () => out };
}

/** A plain better-sqlite3 connection to a library's database (another party: not the core's). */
export function rawDb(libraryDir: string, busyTimeoutMs = 5000): Database.Database {
  const db = new Database(path.join(libraryDir, 'circa.db'), { timeout: busyTimeoutMs });
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  return db;
}

export function jobRow(db: Database.Database, id: number): JobRow {
  return db.prepare('SELECT * FROM background_jobs WHERE id = ?').get(id) as JobRow;
}

/** The job's audit events, in order. */
export function trail(core: Core, id: number): { event: string; actor: string; data: Record<string, unknown>; at: number }[] {
  return core.jobs.queries.auditTrail(id).map((a) => ({ event: a.event, actor: a.actor, at: a.at, data: JSON.parse(a.data) }));
}

export function events(core: Core, id: number): string[] {
  return trail(core, id).map((e) => e.event);
}

/** The row a diagnostic job's `apply` writes (only when it commits): settings `diag.<type>.<key>`. */
export function marker(
  core: Core,
  type: string,
  key: string,
): { jobId: number; attempt: number; output: Record<string, unknown> } | undefined {
  const v = core.db.sqlite.prepare('SELECT value FROM settings WHERE key = ?').pluck().get(`diag.${type}.${key}`) as
    string | undefined;
  return v === undefined ? undefined : JSON.parse(v);
}

/** Waits until a running job's worker has started the handler (diag.sleep writes `start id attempt pid` to its log). */
export async function handlerStarted(log: string, id: number, attempt = 1, timeoutMs = 30_000): Promise<number> {
  const line = await waitFor(
    () => readLog(log).find((l) => l.kind === 'start' && l.id === id && l.attempt === attempt),
    timeoutMs,
    `job ${id} attempt ${attempt} to start`,
  );
  return line.pid;
}

export interface LogLine {
  kind: 'start' | 'end';
  id: number;
  attempt: number;
  pid: number;
}

export function readLog(file: string): LogLine[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [kind, id, attempt, pid] = l.split(' ');
      return { kind: kind as LogLine['kind'], id: Number(id), attempt: Number(attempt), pid: Number(pid) };
    });
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until the core's runner has all its worker processes up. */
export function workersReady(core: Core, n = core.runner!.getStats().workersConfigured): Promise<true> {
  return waitFor(() => core.runner!.getStats().workersAlive >= n || undefined, 30_000, 'worker processes').then(() => true);
}
