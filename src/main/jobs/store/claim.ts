/**
 * The claim: one conditional UPDATE … RETURNING inside the caller's BEGIN IMMEDIATE. It takes
 * the ready job with the highest priority that has waited longest, only of the types the runner
 * can run. Both statements walk background_jobs_queue_idx (priority, run_after, id, queued jobs
 * only) in index order and stop after `limit` rows; an ORDER BY the index cannot deliver would
 * sort every queued row on every claim (quadratic over a large backlog).
 */
import type Database from 'better-sqlite3';
import type { JobRow } from './rows';

export interface ClaimFilter {
  /** At most this many jobs. */
  max: number;
  /**
   * The types this runner may claim now (it has handlers for them and they are under their
   * concurrency), or 'any' when every queued job is of such a type: the common case, where a
   * type filter in the SQL would only cost (see JobTransitions.queuedTypes).
   */
  types: readonly string[] | 'any';
  /** Only this type (topping up a worker's queue); otherwise the best ready job of any allowed type. */
  type?: string;
  /** How many jobs of a type one worker may hold: the one it runs and those queued behind it. */
  depth(type: string): number;
}

/**
 * What a claim reads back: the columns a queued row can differ in. The rest are known from the
 * claim itself; RETURNING * would cost about as much as the update.
 */
const RETURNING = `id, type, payload, subject, idempotency_key, priority, attempt, retry_count, max_retries, run_after,
  error_message, error_stack, error_kind, acknowledged_at, cancel_requested_at, created_at`;

const SET_RUNNING = `SET status = 'running', attempt = attempt + 1, claimed_by = @claimedBy, lease_expires_at = @until,
  started_at = @now, updated_at = @now, progress = NULL, progress_message = NULL`;

export function claimStatements(sqlite: Database.Database) {
  // Type lists are few (the runner's types, minus those at their concurrency limit): one
  // statement per list, with the names in the SQL so the planner sees constants.
  const cache = new Map<string, { any: Database.Statement; ofType: Database.Statement }>();
  const statementsFor = (types: readonly string[]) => {
    const key = types.join('\n');
    let s = cache.get(key);
    if (!s) {
      const list = types.map((t) => `'${t.replaceAll("'", "''")}'`).join(', ');
      const ready = `status = 'queued' AND run_after <= @now${types.length ? ` AND type IN (${list})` : ''}`;
      // INDEXED BY pins the plan: without statistics the planner may take the (status, id) index
      // and sort the whole queue on every claim.
      const queue = 'background_jobs INDEXED BY background_jobs_queue_idx';
      const top = `(SELECT priority FROM ${queue} WHERE ${ready} ORDER BY priority DESC LIMIT 1)`;
      const pick = (extra: string) =>
        sqlite.prepare(
          `UPDATE background_jobs ${SET_RUNNING}
            WHERE id IN (SELECT id FROM ${queue} WHERE ${ready}${extra} AND priority = ${top}
                          ORDER BY run_after, id LIMIT @limit)
            RETURNING ${RETURNING}`,
        );
      s = { any: pick(''), ofType: pick(' AND type = @type') };
      cache.set(key, s);
    }
    return s;
  };

  return {
    claim(claimedBy: string, now: number, until: number, f: ClaimFilter): JobRow[] {
      const s = statementsFor(f.types === 'any' ? [] : f.types);
      const args = { claimedBy, until, now };
      let partial: JobRow[];
      if (f.type === undefined) {
        partial = s.any.all({ ...args, limit: 1 }) as JobRow[];
        const extra = partial.length ? Math.min(f.depth(partial[0].type), f.max) - 1 : 0;
        if (extra > 0) partial = partial.concat(s.ofType.all({ ...args, type: partial[0].type, limit: extra }) as JobRow[]);
      } else {
        if (f.types !== 'any' && !f.types.includes(f.type)) return [];
        partial = s.ofType.all({ ...args, type: f.type, limit: f.max }) as JobRow[];
      }
      const rows = partial.map((r): JobRow => ({
        ...r,
        status: 'running',
        claimed_by: claimedBy,
        lease_expires_at: until,
        started_at: now,
        finished_at: null,
        result_summary: null,
        progress: null,
        progress_message: null,
        updated_at: now,
      }));
      // RETURNING gives rows in update order; hand them to the worker in claim order.
      return rows.sort((a, b) => b.priority - a.priority || a.run_after - b.run_after || a.id - b.id);
    },
  };
}
