/**
 * Inserting jobs. Requests go in multi-row INSERTs (64 at a time) whatever their subject:
 * `ON CONFLICT (idempotency_key) DO NOTHING RETURNING` says which rows went in, and a request
 * whose key is already active is answered with the active job. The enqueued row is known, so it
 * is assembled here rather than read back (RETURNING * costs about as much as the insert).
 */
import type Database from 'better-sqlite3';
import type { EnqueueRequest, JobRow } from './rows';

export interface Enqueued {
  job: JobRow;
  created: boolean;
}

const INSERT_JOB = `INSERT INTO background_jobs
  (type, status, payload, subject, idempotency_key, priority, attempt, retry_count, max_retries, run_after, created_at, updated_at) VALUES`;
const ROW = `(?, 'queued', ?, ?, ?, ?, 0, 0, ?, ?, ?, ?)`;
/** Rows per INSERT: 9 parameters each, well inside SQLite's limit of 32,766. */
const CHUNK = 64;

export function enqueueStatements(sqlite: Database.Database) {
  // A VALUES list of many rows binds positionally (named parameters would need a name per row).
  const inserts = new Map<number, Database.Statement>();
  const insertOf = (n: number) => {
    let s = inserts.get(n);
    if (!s) {
      s = sqlite.prepare(
        `${INSERT_JOB} ${Array(n).fill(ROW).join(', ')} ON CONFLICT (idempotency_key) DO NOTHING RETURNING id, idempotency_key`,
      );
      inserts.set(n, s);
    }
    return s;
  };
  const byKey = sqlite.prepare('SELECT * FROM background_jobs WHERE idempotency_key = @key');

  return {
    insert(reqs: readonly EnqueueRequest[], now: number): Enqueued[] {
      const out: Enqueued[] = new Array(reqs.length);
      /** Keys inserted by this call: a repeat of one in the same call is answered with the first. */
      const firstOfKey = new Map<string, number>();
      for (let start = 0; start < reqs.length; start += CHUNK) {
        const end = Math.min(reqs.length, start + CHUNK);
        const rows: JobRow[] = [];
        const params: unknown[] = [];
        for (let i = start; i < end; i++) {
          const r = queuedRow(reqs[i], now);
          rows.push(r);
          params.push(r.type, r.payload, r.subject, r.idempotency_key, r.priority, r.max_retries, r.run_after, now, now);
        }
        const inserted = insertOf(rows.length).all(params) as { id: number; idempotency_key: string | null }[];
        const idOfKey = new Map<string, number>();
        // AUTOINCREMENT hands out increasing ids in VALUES order: rows without a key take them in order.
        const unkeyedIds: number[] = [];
        for (const r of inserted) {
          if (r.idempotency_key === null) unkeyedIds.push(r.id);
          else idOfKey.set(r.idempotency_key, r.id);
        }
        unkeyedIds.sort((a, b) => a - b);
        let nextUnkeyed = 0;
        rows.forEach((row, j) => {
          const i = start + j;
          const key = row.idempotency_key;
          if (key === null) {
            row.id = unkeyedIds[nextUnkeyed++];
            out[i] = { job: row, created: true };
            return;
          }
          const first = firstOfKey.get(key);
          if (first !== undefined) {
            out[i] = { job: out[first].job, created: false };
            return;
          }
          const id = idOfKey.get(key);
          if (id !== undefined) {
            row.id = id;
            firstOfKey.set(key, i);
            out[i] = { job: row, created: true };
          } else {
            out[i] = { job: byKey.get({ key }) as JobRow, created: false };
          }
        });
      }
      return out;
    },
  };
}

/** The row an INSERT of `r` writes (every column; `id` filled in by the caller). */
function queuedRow(r: EnqueueRequest, now: number): JobRow {
  return {
    id: 0,
    type: r.type,
    status: 'queued',
    payload: JSON.stringify(r.payload),
    subject: r.subject,
    idempotency_key: r.subject == null ? null : `${r.type}:${r.subject}`,
    priority: r.priority ?? 0,
    attempt: 0,
    retry_count: 0,
    max_retries: r.maxRetries,
    run_after: r.runAfter ?? now,
    claimed_by: null,
    lease_expires_at: null,
    started_at: null,
    finished_at: null,
    result_summary: null,
    error_message: null,
    error_stack: null,
    error_kind: null,
    acknowledged_at: null,
    progress: null,
    progress_message: null,
    cancel_requested_at: null,
    created_at: now,
    updated_at: now,
  };
}
