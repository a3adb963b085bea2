/**
 * What a rollback cannot bring back. The signed head in audit_head vouches for the chain's end,
 * but an old head is just as validly signed: copy audit_head from a backup, delete the later
 * events, and head and chain agree again. So the ledger also keeps, beside its key and outside the
 * database, the furthest event it has signed (`audit.counter`: its id and hash, signed with the
 * key). A head that ends before it, or a chain whose event at that id is another one, was rolled
 * back or replaced.
 *
 * The counter is written after the writes it covers have committed (read back from the database,
 * never from a transaction that might roll back), at most once per `everyMs` and when the library
 * closes: it is a lower bound that can lag the ledger by that much, never run ahead of it. A
 * restore, the one rollback Circa does itself, and repair-audit reset it to the head they leave.
 */
import fs from 'node:fs';
import type Database from 'better-sqlite3';
import { AuditKey } from './signing';

export interface SignedPoint {
  lastId: number;
  hash: string;
}

function mac(key: AuditKey, p: SignedPoint): string {
  return key.signEvent(p.lastId, `counter\n${p.hash}`);
}

/** The counter in `file`; null when there is none (a library from before it, or a new one). */
export function readCounter(file: string, key: AuditKey): { point: SignedPoint | null; problem?: string } {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { point: null };
    return { point: null, problem: `its counter (${file}) cannot be read: ${(err as Error).message}` };
  }
  try {
    const c = JSON.parse(text) as { lastId: unknown; hash: unknown; mac: unknown };
    if (typeof c.lastId === 'number' && typeof c.hash === 'string' && typeof c.mac === 'string') {
      const point = { lastId: c.lastId, hash: c.hash };
      if (AuditKey.same(c.mac, mac(key, point))) return { point };
    }
  } catch {
    /* reported below */
  }
  return { point: null, problem: `its counter (${file}) was edited outside Circa` };
}

/** Writes the counter (atomically); `onlyForward`: not if the file already records a later event. */
export function writeCounter(file: string, key: AuditKey, p: SignedPoint, onlyForward = true): void {
  if (onlyForward) {
    const { point } = readCounter(file, key);
    if (point && point.lastId >= p.lastId) return;
  }
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify({ ...p, mac: mac(key, p) }) + '\n', { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/**
 * Why a chain whose signed head ends at `headLastId` is not the one the counter vouches for, or
 * null. `at`: the first event that is gone or replaced.
 */
export function rollbackFinding(
  sqlite: Database.Database,
  point: SignedPoint,
  headLastId: number,
): { at: number; reason: string } | null {
  if (headLastId < point.lastId)
    return {
      at: headLastId + 1,
      reason:
        `the ledger was rolled back: Circa signed it up to event ${point.lastId} (recorded in audit.counter, outside ` +
        `the database), but its signed head ends at event ${headLastId}; events ${headLastId + 1}–${point.lastId} are gone`,
    };
  // Event 0 is the empty ledger's genesis, not a row: a counter written before any event vouches only for the above.
  if (point.lastId === 0) return null;
  const hash = sqlite.prepare('SELECT hash FROM audit_events WHERE id = ?').pluck().get(point.lastId) as string | undefined;
  if (hash !== point.hash)
    return {
      at: point.lastId,
      reason:
        `the ledger was replaced: event ${point.lastId} is not the event Circa signed under that id (recorded in ` +
        'audit.counter, outside the database)',
    };
  return null;
}
