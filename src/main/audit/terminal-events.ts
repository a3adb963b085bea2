/**
 * Every finished job has its end in the ledger: 'succeeded' for a success, 'cancelled' for a
 * cancel, and a failure that was not retried ('failed', or 'reclaimed' when a lapsed lease used
 * up the last try) for a failure. A job row that ended with no such event means events were
 * removed — a rolled-back ledger, say — even when what is left still links up.
 */
import type Database from 'better-sqlite3';

const SQL = `
  SELECT j.id FROM background_jobs j
  WHERE j.status IN ('success', 'failed', 'cancelled')
    AND NOT EXISTS (
      SELECT 1 FROM audit_events e
      WHERE e.job_id = j.id AND CASE j.status
        WHEN 'success' THEN e.event = 'succeeded'
        WHEN 'cancelled' THEN e.event = 'cancelled'
        ELSE e.event IN ('failed', 'reclaimed') AND json_extract(e.data, '$.retryable') IS NOT 1
      END)
  ORDER BY j.id`;

/** What is wrong, naming the first jobs, or null when every finished job has its end. */
export function jobsWithoutTheirEnd(sqlite: Database.Database): string | null {
  const ids = sqlite.prepare(SQL).pluck().all() as number[];
  if (!ids.length) return null;
  const first = ids.slice(0, 5).join(', ');
  return (
    `${ids.length} finished job(s) have no terminal event in the ledger (job ${first}${ids.length > 5 ? ', …' : ''}): ` +
    'their ends were removed from it'
  );
}
