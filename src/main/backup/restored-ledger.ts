/**
 * The audit ledger of a backup being restored, opened under this library's key (audit.key stays
 * in the library folder; a backup holds only circa.db). A backup of this library verifies as it
 * is. One taken before the ledger was signed, or one from another library (signed with another
 * key), has nothing this key can vouch for: if its hash links hold, the restore re-anchors it under
 * this key with an `audit.reanchored` event that says so, which `verify-audit` reports from then
 * on. A ledger this key did sign that no longer matches its head was changed after it was signed:
 * that backup is refused.
 */
import path from 'node:path';
import type Database from 'better-sqlite3';
import { AuditLedger } from '../audit/ledger';
import { AuditKey } from '../audit/signing';
import { readHead, verifyLedger } from '../audit/verify';
import { silentLogger } from '../logger';

export class RestoredLedgerError extends Error {
  override readonly name = 'RestoredLedgerError';
}

export function openRestoredLedger(
  sqlite: Database.Database,
  o: { keyFile: string; source: string; actor: string },
): AuditLedger {
  const ledger = new AuditLedger(sqlite, { keyFile: o.keyFile, log: silentLogger });
  const problem = ledger.problem;
  if (problem) {
    const broken = verifyLedger(sqlite, null, o.keyFile).brokenAt;
    if (broken)
      throw new RestoredLedgerError(`The audit ledger in ${o.source} is broken at event ${broken.id}: ${broken.reason}`);
    const head = readHead(sqlite);
    const key = AuditKey.read(o.keyFile);
    if (head?.mac && key && AuditKey.same(head.mac, key.signHead(head)))
      throw new RestoredLedgerError(`The audit ledger in ${o.source} was changed after Circa signed it: ${problem}`);
    const why = head?.mac ? 'it was signed with another library’s key' : 'it was taken before the ledger was signed';
    ledger.reanchor(`restored from ${path.basename(o.source)}: ${why} (${problem})`, o.actor, { otherKey: !!head?.mac });
  }
  const audit = ledger.verify();
  if (!audit.ok) {
    const where = audit.brokenAt ? `at event ${audit.brokenAt.id}: ${audit.brokenAt.reason}` : audit.problems.join('; ');
    throw new RestoredLedgerError(`The audit ledger in ${o.source} is broken ${where}`);
  }
  return ledger;
}
