/**
 * `circa-worker verify-audit`: checks a library's audit ledger without writing to it — not the
 * database, not its key, not its counter — so it also checks an archived copy on read-only media,
 * which is where one is most often kept. Exit 0 when the ledger checks out, 1 when it does not.
 */
import fs from 'node:fs';
import { AuditKey } from '../audit/signing';
import { verifyLedger } from '../audit/verify';
import { openReadOnly } from '../db/open';
import { libraryPaths } from '../library/paths';

export function verifyAuditCommand(libraryDir: string): number {
  const paths = libraryPaths(libraryDir);
  if (!fs.existsSync(paths.dbFile)) {
    console.error(`There is no library at ${paths.dir} (no circa.db in it)`);
    return 2;
  }
  let key: AuditKey | null = null;
  try {
    key = AuditKey.read(paths.auditKeyFile);
  } catch (err) {
    console.error(`audit ledger BROKEN: ${(err as Error).message}`);
  }
  const db = openReadOnly(paths.dbFile);
  try {
    const report = verifyLedger(db.sqlite, key, paths.auditKeyFile, paths.auditCounterFile);
    for (const note of report.notes) console.log(`note: ${note}`);
    if (report.brokenAt)
      console.error(
        `audit ledger BROKEN at event ${report.brokenAt.id}: ${report.brokenAt.reason} (${report.checked} verified before it)`,
      );
    for (const problem of report.problems) console.error(`audit ledger BROKEN: ${problem}`);
    if (report.ok) console.log(`audit ledger OK: ${report.checked} events verified`);
    return report.ok ? 0 : 1;
  } finally {
    db.close();
  }
}
