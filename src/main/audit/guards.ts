/**
 * The triggers that make audit_events append-only inside SQLite (created by migrations 0001 and
 * 0005). The ledger checks they are all there when it opens; `circa-worker repair-audit` puts
 * back any that were removed, with exactly this SQL.
 */
import type Database from 'better-sqlite3';

const RAISE = `SELECT RAISE(ABORT, 'audit_events is append-only');`;

export const AUDIT_GUARDS: Record<string, string> = {
  audit_events_no_update: `CREATE TRIGGER audit_events_no_update BEFORE UPDATE ON audit_events BEGIN ${RAISE} END`,
  audit_events_no_delete: `CREATE TRIGGER audit_events_no_delete BEFORE DELETE ON audit_events BEGIN ${RAISE} END`,
  // INSERT OR REPLACE deletes the row it replaces without firing the delete trigger.
  audit_events_no_replace:
    'CREATE TRIGGER audit_events_no_replace BEFORE INSERT ON audit_events ' +
    `WHEN EXISTS (SELECT 1 FROM audit_events WHERE id = NEW.id) BEGIN ${RAISE} END`,
};

export function missingGuards(sqlite: Database.Database): string[] {
  const present = new Set(
    sqlite
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'audit_events'`)
      .pluck()
      .all() as string[],
  );
  return Object.keys(AUDIT_GUARDS).filter((name) => !present.has(name));
}

export function restoreGuards(sqlite: Database.Database): string[] {
  const missing = missingGuards(sqlite);
  for (const name of missing) sqlite.exec(AUDIT_GUARDS[name]);
  return missing;
}
