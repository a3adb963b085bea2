/**
 * What someone with the database but not the key can do to the audit ledger, and the CLI that
 * must notice: shared by the ledger's tamper tests.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { AUDIT_GUARDS } from '../../src/main/audit/guards';
import { rowHash } from '../../src/main/audit/signing';
import { appPaths } from '../../src/main/app-paths';
import { libraryPaths } from '../../src/main/library/paths';

const run = promisify(execFile);
const CLI = path.join(appPaths().root, 'src', 'main', 'cli', 'circa-worker.ts');

/** `circa-worker <command> --library dir`, from source: its exit code and everything it printed. */
export async function circaWorkerCli(command: string, dir: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', CLI, command, '--library', dir]);
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

export type AuditRow = {
  id: number;
  at: number;
  event: string;
  actor: string;
  job_id: number | null;
  photo_id: number | null;
  data: string;
};

/** A forger knows the chain's formula: the ledger's own (only the key is out of reach). */
export const chainHash = (prev: string, r: Omit<AuditRow, 'id'>) =>
  rowHash(prev, r.at, r.event, r.actor, r.job_id, r.photo_id, r.data);

/** Drops the guards, runs `fn` on the database, puts the guards back (so only the ledger's own evidence can tell). */
export function tamper(dir: string, fn: (raw: Database.Database) => void): void {
  const raw = new Database(libraryPaths(dir).dbFile);
  raw.pragma('busy_timeout = 5000');
  for (const name of Object.keys(AUDIT_GUARDS)) raw.exec(`DROP TRIGGER ${name}`);
  fn(raw);
  for (const sql of Object.values(AUDIT_GUARDS)) raw.exec(sql);
  raw.close();
}

/** Rewrites every row from `fromId` on with a correct hash chain (the keyless attacker's best). */
export function rechain(raw: Database.Database, fromId: number): void {
  const rows = raw.prepare('SELECT * FROM audit_events WHERE id >= ? ORDER BY id').all(fromId) as AuditRow[];
  let prev = raw.prepare('SELECT hash FROM audit_events WHERE id < ? ORDER BY id DESC LIMIT 1').pluck().get(fromId) as string;
  const update = raw.prepare('UPDATE audit_events SET prev_hash = ?, hash = ? WHERE id = ?');
  for (const r of rows) {
    const hash = chainHash(prev, r);
    update.run(prev, hash, r.id);
    prev = hash;
  }
}
