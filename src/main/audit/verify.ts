/**
 * Verifying the ledger end to end: every hash link from the first event, every signature, the
 * signed head and the rollback counter kept outside the database — so a removed, edited,
 * rewritten (hashes recomputed), appended, truncated or rolled-back ledger is reported with the
 * first event that does not check out. Signatures stripped from the events, and re-anchor events
 * Circa did not sign, are reported as such. Every finished job must have its terminal event.
 */
import type Database from 'better-sqlite3';
import { missingGuards } from './guards';
import { AuditKey, GENESIS_HASH, rowHash, type ChainHead } from './signing';
import { readCounter, rollbackFinding } from './rollback-counter';
import { jobsWithoutTheirEnd } from './terminal-events';

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

/**
 * The re-anchor events that are genuine: signed with the key in use. One made before a later
 * genuine re-anchor with a new key was signed with a key that is gone, and cannot be judged.
 */
function reanchorsToJudge(sqlite: Database.Database, key: AuditKey | null): Map<number, 'genuine' | 'forged' | 'unjudged'> {
  const rows = sqlite
    .prepare("SELECT id, hash, mac, data FROM audit_events WHERE event = 'audit.reanchored' ORDER BY id DESC")
    .all() as { id: number; hash: string; mac: string | null; data: string }[];
  const verdicts = new Map<number, 'genuine' | 'forged' | 'unjudged'>();
  let keyChangedAfter = false;
  for (const r of rows) {
    if (!key || keyChangedAfter) {
      verdicts.set(r.id, 'unjudged');
      continue;
    }
    const genuine = AuditKey.same(r.mac, key.signEvent(r.id, r.hash));
    verdicts.set(r.id, genuine ? 'genuine' : 'forged');
    const data = JSON.parse(r.data) as { newKey?: boolean; otherKey?: boolean };
    if (genuine && (data.newKey || data.otherKey)) keyChangedAfter = true;
  }
  return verdicts;
}

export function verifyLedger(
  sqlite: Database.Database,
  key: AuditKey | null,
  keyFile: string,
  counterFile?: string,
): VerifyReport {
  const problems = missingGuards(sqlite).map((name) => `the append-only trigger ${name} was removed`);
  const unfinished = jobsWithoutTheirEnd(sqlite);
  if (unfinished) problems.push(unfinished);
  const reanchors = reanchorsToJudge(sqlite, key);
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
  let lastMac: string | null = null;
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
      const data = JSON.parse(r.data) as { reason?: string; newKey?: boolean; otherKey?: boolean };
      if (reanchors.get(r.id) === 'forged')
        return report({
          id: r.id,
          reason:
            'a forged re-anchor event: it says the ledger was re-anchored, but Circa did not sign it (repair-audit ' +
            'signs every re-anchor with the key), so it was added outside Circa, hiding what came before it',
        });
      notes.push(`event ${r.id}: re-anchored with repair-audit (${data.reason ?? 'no reason given'})`);
      if (data.newKey || data.otherKey) {
        // Signatures before it were made with a key that is gone (or another library's): they cannot be judged.
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
    lastMac = r.mac;
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

  // Circa signs the last event of every write, so the last event of all carries a signature.
  const signaturesCleared = () =>
    report(
      {
        id: lastGoodSigned + 1,
        reason:
          `the events' signatures were cleared: Circa signs the last event of every write, but the last event ` +
          `(${prevId}) carries none, and none after event ${lastGoodSigned} checks out; events ` +
          `${lastGoodSigned + 1}–${prevId} cannot be vouched for (they may have been rewritten)`,
      },
      checkedAtLastGood,
    );

  const head = readHead(sqlite);
  const counter = counterFile && key ? readCounter(counterFile, key) : null;
  if (counter?.problem) problems.push(counter.problem);
  const rolledBack = head?.mac && counter?.point ? rollbackFinding(sqlite, counter.point, head.lastId) : null;
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
  } else if (prevId > 0 && lastMac === null) return signaturesCleared();
  else if (rolledBack) return report({ id: rolledBack.at, reason: rolledBack.reason }, Math.min(count, rolledBack.at - 1));
  else if (prev !== head.hash || count !== head.count)
    return report({ id: prevId, reason: 'the ledger was rewritten: its last event does not match the signed head' });
  return report();
}
