/**
 * The claim, inside the caller's BEGIN IMMEDIATE: the ready jobs with the highest priority that
 * have waited longest, only of the types the runner can run, each taken by a conditional
 * `UPDATE … WHERE id = ? AND status = 'queued' … RETURNING` whose affected row decides. The
 * candidates come from a read of background_jobs_queue_idx (priority, run_after, id; queued jobs
 * only) in index order that stops after `limit` rows: an ORDER BY the index cannot deliver would
 * sort every queued row on every claim (quadratic over a large backlog).
 *
 * Why a read and then updates by id, rather than one UPDATE … WHERE id IN (ordered subquery): the
 * single statement materialises its subquery, then the rows to change, then RETURNING, each in a
 * temporary b-tree — about 130 µs for one job against 30–50 µs this way, and a claim of one job
 * is what most types make. Nothing can change between the read and the updates: the caller holds
 * the write lock.
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
const RETURNED = [
  'id',
  'type',
  'payload',
  'subject',
  'idempotency_key',
  'priority',
  'attempt',
  'retry_count',
  'max_retries',
  'run_after',
  'error_message',
  'error_stack',
  'error_kind',
  'acknowledged_at',
  'cancel_requested_at',
  'created_at',
] as const satisfies readonly (keyof JobRow)[];
const RETURNING = RETURNED.join(', ');
/** Where each returned column is in a raw row. */
const at = Object.fromEntries(RETURNED.map((c, i) => [c, i])) as Record<(typeof RETURNED)[number], number>;

const SET_RUNNING = `SET status = 'running', attempt = attempt + 1, claimed_by = @claimedBy, lease_expires_at = @until,
  started_at = @now, updated_at = @now, progress = NULL, progress_message = NULL`;

/** A claimed row as RETURNING gives it in raw mode: the RETURNED columns, in order (an array is cheaper to read than an object). */
type Taken = unknown[];

/**
 * The claimed row, spelt out field by field: `{ ...r, status, … }` builds the object one property at
 * a time past its in-object slots, about 6 KB of garbage per job, and main's scavenges during a
 * drain grew to tens of ms (each one a pause of every user request).
 */
function runningRow(r: Taken, claimedBy: string, until: number, now: number): JobRow {
  return {
    id: r[at.id] as number,
    type: r[at.type] as string,
    status: 'running',
    payload: r[at.payload] as string,
    subject: r[at.subject] as string | null,
    idempotency_key: r[at.idempotency_key] as string | null,
    priority: r[at.priority] as number,
    attempt: r[at.attempt] as number,
    retry_count: r[at.retry_count] as number,
    max_retries: r[at.max_retries] as number,
    run_after: r[at.run_after] as number,
    claimed_by: claimedBy,
    lease_expires_at: until,
    started_at: now,
    finished_at: null,
    result_summary: null,
    error_message: r[at.error_message] as string | null,
    error_stack: r[at.error_stack] as string | null,
    error_kind: r[at.error_kind] as JobRow['error_kind'],
    acknowledged_at: r[at.acknowledged_at] as number | null,
    progress: null,
    progress_message: null,
    cancel_requested_at: r[at.cancel_requested_at] as number | null,
    created_at: r[at.created_at] as number,
    updated_at: now,
  };
}

export function claimStatements(sqlite: Database.Database) {
  // Type lists are few (the runner's types, minus those at their concurrency limit): one
  // statement per list, with the names in the SQL so the planner sees constants.
  const cache = new Map<string, { top: Database.Statement; any: Database.Statement; ofType: Database.Statement }>();
  const statementsFor = (types: readonly string[]) => {
    const key = types.join('\n');
    let s = cache.get(key);
    if (!s) {
      const list = types.map((t) => `'${t.replaceAll("'", "''")}'`).join(', ');
      const ready = `status = 'queued' AND run_after <= @now${types.length ? ` AND type IN (${list})` : ''}`;
      // INDEXED BY pins the plan: without statistics the planner may take the (status, id) index
      // and sort the whole queue on every claim.
      const queue = 'background_jobs INDEXED BY background_jobs_queue_idx';
      const candidates = (extra: string) =>
        sqlite.prepare(
          `SELECT id, type FROM ${queue} WHERE ${ready}${extra} AND priority = @priority ORDER BY run_after, id LIMIT @limit`,
        );
      s = {
        top: sqlite.prepare(`SELECT priority FROM ${queue} WHERE ${ready} ORDER BY priority DESC LIMIT 1`).pluck(),
        any: candidates(''),
        ofType: candidates(' AND type = @type'),
      };
      cache.set(key, s);
    }
    return s;
  };
  const take = sqlite
    .prepare(`UPDATE background_jobs ${SET_RUNNING} WHERE id = @id AND status = 'queued' RETURNING ${RETURNING}`)
    .raw(true);

  return {
    claim(claimedBy: string, now: number, until: number, f: ClaimFilter): JobRow[] {
      const s = statementsFor(f.types === 'any' ? [] : f.types);
      if (f.type !== undefined && f.types !== 'any' && !f.types.includes(f.type)) return [];
      const priority = s.top.get({ now }) as number | undefined;
      if (priority === undefined) return [];
      let picked: { id: number; type: string }[];
      if (f.type === undefined) {
        // The best ready job decides the type; more of that type fill the worker's hand-off.
        picked = s.any.all({ now, priority, limit: 1 }) as { id: number; type: string }[];
        const more = picked.length ? Math.min(f.depth(picked[0].type), f.max) - 1 : 0;
        if (more > 0) {
          const rest = s.ofType.all({ now, priority, type: picked[0].type, limit: more + 1 }) as { id: number; type: string }[];
          picked = picked.concat(rest.filter((r) => r.id !== picked[0].id).slice(0, more));
        }
      } else {
        picked = s.ofType.all({ now, priority, type: f.type, limit: f.max }) as { id: number; type: string }[];
      }
      const rows: JobRow[] = [];
      for (const { id } of picked) {
        const r = take.get({ id, claimedBy, until, now }) as Taken | undefined;
        if (r) rows.push(runningRow(r, claimedBy, until, now));
      }
      // Candidates were read in claim order (priority, then longest waiting): the worker gets them so.
      return rows;
    },
  };
}
