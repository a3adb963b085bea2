/**
 * Reads of background_jobs and its audit trail for the UI and the CLI. No transitions here (see
 * ./transitions.ts). Built to stay fast with millions of finished jobs in the table: counts and
 * totals come from job_counts and the red badge's unseen failures from unseen_failure_count (both
 * kept by triggers), and a filtered page is read as one index range
 * per (type, status) and merged, so no page sorts or scans more than it returns.
 */
import type Database from 'better-sqlite3';
import { JOB_STATUSES, type JobStatus } from '../../../shared/jobs/states';
import type { JobRow } from './rows';

export interface JobListFilter {
  statuses?: readonly string[];
  types?: readonly string[];
  subject?: string;
  ids?: readonly number[];
  /** Keyset cursor: the id of the last row of the previous page (newest first). */
  beforeId?: number;
  limit: number;
}

export interface AuditTrailRow {
  id: number;
  at: number;
  event: string;
  actor: string;
  data: string;
}

export class JobQueries {
  private readonly s;

  constructor(private readonly sqlite: Database.Database) {
    const p = (sql: string) => sqlite.prepare(sql);
    this.s = {
      byId: p('SELECT * FROM background_jobs WHERE id = @id'),
      counts: p(`SELECT status, sum(n) AS n FROM job_counts GROUP BY status`),
      // Kept by triggers (the unseen_failure_count migration): counting even the partial index
      // that holds just these rows cost ~3 ms at 150,000 failures, on every jobs.changed event.
      unseenFailed: p('SELECT n FROM unseen_failure_count WHERE id = 1').pluck(),
      countsByType: p(`SELECT type, status, n FROM job_counts WHERE n > 0`),
      trail: p('SELECT id, at, event, actor, data FROM audit_events WHERE job_id = @jobId ORDER BY id'),
      // INDEXED BY: without it the planner takes (status, id) and reads every failed row to test
      // acknowledged_at (316 ms at 150,000 failures); the partial index holds exactly these rows.
      unresolvedFailed: p(
        `SELECT f.* FROM background_jobs f INDEXED BY background_jobs_unseen_failures_idx
          WHERE f.status = 'failed' AND f.acknowledged_at IS NULL
            AND NOT EXISTS (SELECT 1 FROM background_jobs n
                             WHERE n.type = f.type AND n.id > f.id
                               AND (n.subject = f.subject OR (n.subject IS NULL AND f.subject IS NULL AND n.payload = f.payload)))
          ORDER BY f.id LIMIT 10000`,
      ),
    };
  }

  get(id: number): JobRow | undefined {
    return this.s.byId.get({ id }) as JobRow | undefined;
  }

  counts(): Record<JobStatus, number> {
    const out: Record<JobStatus, number> = { queued: 0, running: 0, success: 0, failed: 0, cancelled: 0 };
    for (const r of this.s.counts.all() as { status: JobStatus; n: number }[]) out[r.status] = r.n;
    return out;
  }

  /** Failures nobody has dismissed or retried yet (a counter kept by triggers). */
  unseenFailed(): number {
    return (this.s.unseenFailed.get() as number | undefined) ?? 0;
  }

  /** A page of jobs, newest first, and how many match in all. */
  list(filter: JobListFilter): { rows: JobRow[]; total: number } {
    if (filter.subject || filter.ids?.length) return this.listFew(filter);
    const statuses = filter.statuses?.length ? filter.statuses : filter.types?.length ? JOB_STATUSES : null;
    let total = 0;
    for (const c of this.s.countsByType.all() as { type: string; status: string; n: number }[]) {
      if ((!filter.types?.length || filter.types.includes(c.type)) && (!statuses || statuses.includes(c.status))) total += c.n;
    }
    if (!statuses) {
      const rows = this.page('', {}, filter);
      return { rows, total };
    }
    // One index range per (type, status), newest first, each at most a page long; merged by id.
    const ranges: JobRow[][] = [];
    for (const status of statuses) {
      if (filter.types?.length)
        for (const type of filter.types) ranges.push(this.page('type = @type AND status = @status', { type, status }, filter));
      else ranges.push(this.page('status = @status', { status }, filter));
    }
    const rows = ranges
      .flat()
      .sort((a, b) => b.id - a.id)
      .slice(0, filter.limit);
    return { rows, total };
  }

  /** Pages of a subject's or a few named jobs: small sets, counted directly. */
  private listFew(filter: JobListFilter): { rows: JobRow[]; total: number } {
    const where: string[] = [];
    const args: Record<string, unknown> = {};
    const anyOf = (column: string, name: string, values: readonly unknown[] | undefined) => {
      if (!values?.length) return;
      where.push(`${column} IN (${values.map((_, i) => `@${name}${i}`).join(', ')})`);
      values.forEach((v, i) => (args[`${name}${i}`] = v));
    };
    anyOf('status', 'status', filter.statuses);
    anyOf('type', 'type', filter.types);
    anyOf('id', 'id', filter.ids);
    if (filter.subject) {
      where.push('subject = @subject');
      args.subject = filter.subject;
    }
    const total = this.sqlite
      .prepare(`SELECT count(*) FROM background_jobs WHERE ${where.join(' AND ')}`)
      .pluck()
      .get(args) as number;
    return { rows: this.page(where.join(' AND '), args, filter), total };
  }

  private page(where: string, args: Record<string, unknown>, filter: JobListFilter): JobRow[] {
    const conditions = [where, filter.beforeId ? 'id < @beforeId' : ''].filter(Boolean);
    const sql = `SELECT * FROM background_jobs ${conditions.length ? `WHERE ${conditions.join(' AND ')}` : ''} ORDER BY id DESC LIMIT @limit`;
    let stmt = this.pages.get(sql);
    if (!stmt) this.pages.set(sql, (stmt = this.sqlite.prepare(sql)));
    return stmt.all({ ...args, ...(filter.beforeId ? { beforeId: filter.beforeId } : {}), limit: filter.limit }) as JobRow[];
  }

  private readonly pages = new Map<string, Database.Statement>();

  auditTrail(jobId: number): AuditTrailRow[] {
    return this.s.trail.all({ jobId }) as AuditTrailRow[];
  }

  /** Failed jobs not yet seen, with no later job for the same work. */
  unresolvedFailures(types?: readonly string[]): JobRow[] {
    const rows = this.s.unresolvedFailed.all() as JobRow[];
    return types?.length ? rows.filter((r) => types.includes(r.type)) : rows;
  }
}
