/** The shapes the job store reads and writes: a row of background_jobs, a lease, an enqueue request. */
import type { backgroundJobs } from '../../db/schema';
import type { JobStatus } from '../../../shared/jobs/states';

/** A background_jobs row as SQLite returns it (column names, not drizzle's property names). */
export interface JobRow {
  id: number;
  type: string;
  status: JobStatus;
  payload: string;
  subject: string | null;
  idempotency_key: string | null;
  priority: number;
  attempt: number;
  retry_count: number;
  max_retries: number;
  run_after: number;
  claimed_by: string | null;
  lease_expires_at: number | null;
  started_at: number | null;
  finished_at: number | null;
  result_summary: string | null;
  error_message: string | null;
  error_stack: string | null;
  error_kind: 'retryable' | 'permanent' | 'retry_later' | null;
  acknowledged_at: number | null;
  progress: number | null;
  progress_message: string | null;
  cancel_requested_at: number | null;
  created_at: number;
  updated_at: number;
}

// JobRow names exactly the table's columns: a column added to the schema (and so to a migration)
// without being added here, or the reverse, is a compile error.
type ColumnNames = {
  [K in keyof typeof backgroundJobs._.columns]: (typeof backgroundJobs._.columns)[K]['_']['name'];
}[keyof typeof backgroundJobs._.columns];
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const jobRowMatchesSchema: Same<keyof JobRow, ColumnNames> = true;

/** Who holds a running job: the fence for every write about it. */
export interface Lease {
  id: number;
  attempt: number;
  claimedBy: string;
}

export interface EnqueueRequest {
  type: string;
  payload: unknown;
  subject: string | null;
  maxRetries: number;
  priority?: number;
  runAfter?: number;
}

export type FailureOutcome = 'requeued' | 'failed' | 'cancelled' | 'lost';
