/**
 * The statements of JobTransitions, prepared once per connection (as ./claim.ts and ./enqueue.ts
 * keep theirs). Every write about a running job carries FENCE: a write that changes no row means
 * the lease was lost.
 */
import type Database from 'better-sqlite3';

/** The fence every write about a running job carries. */
export const FENCE = `id = @id AND status = 'running' AND claimed_by = @claimedBy AND attempt = @attempt`;

export function transitionStatements(sqlite: Database.Database) {
  const p = (sql: string) => sqlite.prepare(sql);
  return {
    renew: p(`UPDATE background_jobs SET lease_expires_at = @until WHERE ${FENCE} RETURNING cancel_requested_at`),
    success: p(
      `UPDATE background_jobs
          SET status = 'success', idempotency_key = NULL, claimed_by = NULL, lease_expires_at = NULL,
              finished_at = @now, updated_at = @now, result_summary = @summary, progress = 1, error_message = NULL, error_stack = NULL, error_kind = NULL
        WHERE ${FENCE} AND cancel_requested_at IS NULL`,
    ),
    // The same for a job without a subject: not naming idempotency_key leaves its index alone
    // (one page less to write per commit).
    successNoKey: p(
      `UPDATE background_jobs
          SET status = 'success', claimed_by = NULL, lease_expires_at = NULL,
              finished_at = @now, updated_at = @now, result_summary = @summary, progress = 1, error_message = NULL, error_stack = NULL, error_kind = NULL
        WHERE ${FENCE} AND cancel_requested_at IS NULL AND idempotency_key IS NULL`,
    ),
    checkpoint: p(
      `UPDATE background_jobs SET payload = @payload, progress = @progress, progress_message = @summary, result_summary = @summary,
              lease_expires_at = @until, updated_at = @now
        WHERE ${FENCE} AND cancel_requested_at IS NULL`,
    ),
    held: p(`SELECT * FROM background_jobs WHERE ${FENCE}`),
    toQueued: p(
      `UPDATE background_jobs
          SET status = 'queued', claimed_by = NULL, lease_expires_at = NULL, retry_count = @retryCount, run_after = @runAfter,
              updated_at = @now, error_message = @message, error_stack = @stack, error_kind = @kind, progress = NULL,
              progress_message = NULL
        WHERE ${FENCE}`,
    ),
    toTerminal: p(
      `UPDATE background_jobs
          SET status = @status, idempotency_key = NULL, claimed_by = NULL, lease_expires_at = NULL, retry_count = @retryCount,
              finished_at = @now, updated_at = @now, error_message = @message, error_stack = @stack, error_kind = @kind
        WHERE ${FENCE}`,
    ),
    progress: p(`UPDATE background_jobs SET progress = @progress, progress_message = @message, updated_at = @now WHERE ${FENCE}`),
    cancelQueued: p(
      `UPDATE background_jobs
          SET status = 'cancelled', idempotency_key = NULL, cancel_requested_at = @now, finished_at = @now, updated_at = @now
        WHERE id = @id AND status = 'queued'`,
    ),
    requestCancel: p(
      `UPDATE background_jobs SET cancel_requested_at = @now, updated_at = @now
        WHERE id = @id AND status = 'running' AND cancel_requested_at IS NULL`,
    ),
    runNow: p(`UPDATE background_jobs SET run_after = @now, updated_at = @now WHERE id = @id AND status = 'queued'`),
    // Both walk an index: the queue's (priority, ...) for jobs at the in-view priority, the subject
    // index for the photos named. Only jobs at the default priority are raised, so a priority
    // someone chose on purpose is never overwritten.
    lowerOutOfView: p(
      `UPDATE background_jobs SET priority = 0
        WHERE status = 'queued' AND priority = @priority AND (subject IS NULL OR subject NOT IN (SELECT value FROM json_each(@subjects)))`,
    ),
    raiseInView: p(
      `UPDATE background_jobs SET priority = @priority
        WHERE subject IN (SELECT value FROM json_each(@subjects)) AND status = 'queued' AND priority = 0`,
    ),
    acknowledge: p(
      `UPDATE background_jobs SET acknowledged_at = @now, updated_at = @now
        WHERE id = @id AND status = 'failed' AND acknowledged_at IS NULL`,
    ),
    unseenFailures: p(
      `SELECT id, type, subject FROM background_jobs INDEXED BY background_jobs_unseen_failures_idx
        WHERE status = 'failed' AND acknowledged_at IS NULL ORDER BY id LIMIT 10000`,
    ),
    byId: p('SELECT * FROM background_jobs WHERE id = @id'),
    lapsed: p(`SELECT * FROM background_jobs WHERE status = 'running' AND lease_expires_at < @now LIMIT 500`),
    running: p(`SELECT * FROM background_jobs WHERE status = 'running'`),
    queued: p(`SELECT type, n FROM job_counts WHERE status = 'queued' AND n > 0`),
    prune: p(
      `DELETE FROM background_jobs
        WHERE id IN (SELECT id FROM background_jobs WHERE finished_at IS NOT NULL AND finished_at < @before LIMIT @limit)`,
    ),
  };
}
