/**
 * Verifying the ledger end to end: every hash link from the first event, every signature, and
 * the signed head — so a removed, edited, rewritten (hashes recomputed), appended or truncated
 * ledger is reported with the first event that does not check out.
 */
import type Database from 'better-sqlite3';
import { missingGuards } from './guards';
import { AuditKey, GENESIS_HASH, rowHash, type ChainHead } from './signing';

export interface VerifyReport {
  ok: boolean;
  /** Events that checked out before the first bad one (all of them when ok). */
  checked: number;
  /** The first event that does not check out, and why. */
  brokenAt?: { id: number; reason: string };
  /** What is wrong beyond one event: removed guards, a missing key, an edited head. */
  problems: string[];
  /** Breaks acknowledged with `circa-worker repair-audit`, and what could not be checked. */
  notes: string[];
}

interface Row {
  id: number;
  at: number;
  event: string;
  actor: string;
  job_id: number | null;
  photo_id: number | null;
  data: string;
  prev_hash: string;
  hash: string;
  mac: string | null;
}

export interface StoredHead extends ChainHead {
  mac: string | null;
}

const HEAD_SQL = 'SELECT last_id AS lastId, count, hash, mac FROM audit_head WHERE id = 1';

/** The signed head; pass a prepared HEAD_SQL statement when reading it often. */
export function readHead(sqlite: Database.Database, statement = sqlite.prepare(HEAD_SQL)): StoredHead | null {
  return (statement.get() as StoredHead | undefined) ?? null;
}

export function prepareHeadRead(sqlite: Database.Database): Database.Statement {
  return sqlite.prepare(HEAD_SQL);
}

export function verifyLedger(sqlite: Database.Database, key: AuditKey | null, keyFile: string): VerifyReport {
  const problems = missingGuards(sqlite).map((name) => `the append-only trigger ${name} was removed`);
  const notes: string[] = [];
  const report = (brokenAt?: VerifyReport['brokenAt'], checked = count): VerifyReport => ({
    ok: !brokenAt && problems.length === 0,
    checked,
    ...(brokenAt ? { brokenAt } : {}),
    problems,
    notes,
  });

  let prev = GENESIS_HASH;
  let prevId = 0;
  let count = 0;
  let lastGoodSigned = 0;
  let checkedAtLastGood = 0;
  let badSignature: { id: number; after: number; checked: number } | null = null;
  const rows = sqlite
    .prepare('SELECT id, at, event, actor, job_id, photo_id, data, prev_hash, hash, mac FROM audit_events ORDER BY id')
    .iterate() as IterableIterator<Row>;
  for (const r of rows) {
    if (r.prev_hash !== prev) {
      const gap = prevId && r.id > prevId + 1 ? `events ${prevId + 1}–${r.id - 1} are missing; ` : '';
      return report({ id: r.id, reason: `${gap}previous-hash link does not match (a row was removed or reordered)` });
    }
    if (rowHash(prev, r.at, r.event, r.actor, r.job_id, r.photo_id, r.data) !== r.hash)
      return report({ id: r.id, reason: 'row contents do not match its hash (the row was edited)' });
    if (r.event === 'audit.reanchored') {
      const data = JSON.parse(r.data) as { reason?: string; newKey?: boolean };
      notes.push(`event ${r.id}: re-anchored with repair-audit (${data.reason ?? 'no reason given'})`);
      if (data.newKey) {
        // Signatures before it were made with a key that is gone: they cannot be judged.
        if (badSignature || lastGoodSigned < r.id - 1)
          notes.push(`signatures before event ${r.id} were made with a lost key and were not checked`);
        badSignature = null;
      }
    }
    count++;
    if (r.mac !== null && key && !badSignature) {
      if (AuditKey.same(r.mac, key.signEvent(r.id, r.hash))) {
        lastGoodSigned = r.id;
        checkedAtLastGood = count;
      } else badSignature = { id: r.id, after: lastGoodSigned, checked: checkedAtLastGood };
    }
    prev = r.hash;
    prevId = r.id;
  }
  if (badSignature)
    return report(
      {
        id: badSignature.id,
        reason:
          `rewritten at or before this event, after event ${badSignature.after} (the last signed event that ` +
          'checks out): its signature does not match, so the hashes after the change were recomputed',
      },
      badSignature.checked,
    );

  const head = readHead(sqlite);
  if (!head) problems.push('the signed head of the ledger (audit_head) was removed');
  else if (head.mac === null) problems.push('the ledger has never been anchored (open the library with Circa first)');
  else if (!key) problems.push(`the audit key (${keyFile}) is missing: the hash links hold, but completeness cannot be checked`);
  else if (!AuditKey.same(head.mac, key.signHead(head))) problems.push('the signed head (audit_head) was edited outside Circa');
  else if (prevId < head.lastId)
    return report({
      id: prevId + 1,
      reason:
        `the ledger was truncated: its signed head records ${head.count} events ending at event ${head.lastId}, ` +
        `but it ends at event ${prevId}; ${head.count - count} event(s) are missing`,
    });
  else if (prevId > head.lastId) {
    const first = sqlite.prepare('SELECT min(id) FROM audit_events WHERE id > ?').pluck().get(head.lastId) as number;
    return report(
      {
        id: first,
        reason: `added outside Circa: the signed head ends at event ${head.lastId}; events ${first}–${prevId} are not covered by it`,
      },
      count - (prevId - head.lastId),
    );
  } else if (prev !== head.hash || count !== head.count)
    return report({ id: prevId, reason: 'the ledger was rewritten: its last event does not match the signed head' });
  return report();
}
