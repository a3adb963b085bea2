/** Reads of background_jobs and its audit trail for the UI and the CLI. No transitions here (see ./transitions.ts). */
import type Database from 'better-sqlite3';
import type { JobStatus } from '../../../shared/jobs/states';
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
      counts: p(`SELECT status, count(*) AS n FROM background_jobs GROUP BY status`),
      trail: p('SELECT id, at, event, actor, data FROM audit_events WHERE job_id = @jobId ORDER BY id'),
      unresolvedFailed: p(
        `SELECT f.* FROM background_jobs f
          WHERE f.status = 'failed'
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

  /** A page of jobs, newest first, and how many match in all. */
  list(filter: JobListFilter): { rows: JobRow[]; total: number } {
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
    const base = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const total = (this.sqlite.prepare(`SELECT count(*) FROM background_jobs ${base}`).pluck().get(args) as number) ?? 0;
    const page = filter.beforeId ? [...where, 'id < @beforeId'] : where;
    const rows = this.sqlite
      .prepare(`SELECT * FROM background_jobs ${page.length ? `WHERE ${page.join(' AND ')}` : ''} ORDER BY id DESC LIMIT @limit`)
      .all({ ...args, ...(filter.beforeId ? { beforeId: filter.beforeId } : {}), limit: filter.limit }) as JobRow[];
    return { rows, total };
  }

  auditTrail(jobId: number): AuditTrailRow[] {
    return this.s.trail.all({ jobId }) as AuditTrailRow[];
  }

  /** Failed jobs with no later job for the same work. */
  unresolvedFailures(types?: readonly string[]): JobRow[] {
    const rows = this.s.unresolvedFailed.all() as JobRow[];
    return types?.length ? rows.filter((r) => types.includes(r.type)) : rows;
  }
}
