/**
 * What the rest of main (IPC handlers, import, reruns) asks of the job system: enqueue with
 * validation and idempotency, cancel, retry, list and inspect. It wakes the runner on enqueue so
 * an idle queue starts new work at once.
 */
import type { JobCounts, JobDetails, JobSummary } from '../../shared/contract';
import { invalidPayloadMessage } from '../../shared/jobs/define';
import { CallFailure } from '../../shared/result';
import type { JobRegistry } from './registry';
import type { JobQueries, JobListFilter } from './store/queries';
import type { JobRow } from './store/rows';
import type { JobTransitions } from './store/transitions';
import type { JobRunner } from './runner/runner';

export interface EnqueueInput {
  type: string;
  payload: unknown;
  priority?: number;
}

export interface EnqueueOptions {
  /** A new attempt at the same work (a retry, a re-run): earlier failures of it count as seen. */
  supersedeFailures?: boolean;
}

/** Names of photos by id, for jobs about a photo (`photo:42`). */
export type PhotoNames = (ids: readonly number[]) => Map<number, string>;

const PHOTO_SUBJECT = /^photo:(\d+)$/;

/**
 * The priority of queued jobs about photos on screen (see `inView`): above the default 0 that
 * every import and re-run uses, below the 100 a caller may ask for.
 */
export const IN_VIEW_PRIORITY = 50;

/** The photo a job is about, from its subject, or null. */
export function subjectPhotoId(subject: string | null): number | null {
  const m = subject ? PHOTO_SUBJECT.exec(subject) : null;
  return m ? Number(m[1]) : null;
}

export function toSummary(r: JobRow, photoName?: string): JobSummary {
  const photoId = subjectPhotoId(r.subject);
  return {
    id: r.id,
    type: r.type,
    status: r.status,
    subject: r.subject,
    attempt: r.attempt,
    retryCount: r.retry_count,
    maxRetries: r.max_retries,
    progress: r.progress,
    progressMessage: r.progress_message,
    errorMessage: r.error_message,
    errorKind: r.error_kind,
    acknowledgedAt: r.acknowledged_at,
    photo: photoId != null && photoName !== undefined ? { id: photoId, filename: photoName } : null,
    resultSummary: r.result_summary,
    cancelRequested: r.cancel_requested_at != null,
    runAfter: r.run_after,
    createdAt: r.created_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    updatedAt: r.updated_at,
  };
}

export class JobService {
  private runner: JobRunner | null = null;

  constructor(
    readonly transitions: JobTransitions,
    readonly queries: JobQueries,
    readonly registry: JobRegistry,
    private readonly onChanged: (ids: number[]) => void,
    private readonly photoNames: PhotoNames = () => new Map(),
  ) {}

  attachRunner(runner: JobRunner | null): void {
    this.runner = runner;
  }

  /** Validates payloads against each type's schema and enqueues all in one transaction. */
  enqueueMany(items: readonly EnqueueInput[], actor = 'user', opts: EnqueueOptions = {}): { job: JobRow; created: boolean }[] {
    const reqs = items.map((it) => {
      const definition = this.registry.definition(it.type);
      if (!definition) throw new CallFailure('invalid_input', `Unknown job type "${it.type}"`);
      const parsed = definition.payload.safeParse(it.payload);
      if (!parsed.success) throw new CallFailure('invalid_input', invalidPayloadMessage(it.type, parsed.error.issues));
      return {
        type: it.type,
        payload: parsed.data,
        subject: definition.subject(parsed.data),
        maxRetries: definition.policy.maxRetries,
        priority: it.priority,
      };
    });
    let seen: number[] = [];
    const out = opts.supersedeFailures
      ? this.transitions.transaction(() => {
          const enqueued = this.transitions.enqueue(reqs, actor);
          seen = this.supersedeFailures(enqueued, actor);
          return enqueued;
        })
      : this.transitions.enqueue(reqs, actor);
    const created = out.filter((o) => o.created).map((o) => o.job.id);
    if (created.length || seen.length) this.onChanged([...created, ...seen]);
    if (created.length) this.runner?.wake();
    return out;
  }

  /** In tx. Failures of the same work as the jobs just enqueued count as seen: the new attempt answers them. */
  private supersedeFailures(enqueued: readonly { job: JobRow }[], actor: string): number[] {
    const unseen = this.transitions.unseenFailures();
    if (!unseen.length) return [];
    const attempt = new Map<string, number>();
    for (const { job } of enqueued) if (job.subject != null) attempt.set(`${job.type}\n${job.subject}`, job.id);
    const done: number[] = [];
    for (const f of unseen) {
      const by = f.subject != null ? attempt.get(`${f.type}\n${f.subject}`) : undefined;
      if (by !== undefined && by !== f.id) done.push(...this.transitions.acknowledge([f.id], actor, { supersededBy: by }));
    }
    return done;
  }

  enqueue(item: EnqueueInput, actor = 'user', opts: EnqueueOptions = {}): { job: JobSummary; created: boolean } {
    const [r] = this.enqueueMany([item], actor, opts);
    return { job: this.summaries([r.job])[0], created: r.created };
  }

  cancel(id: number, actor = 'user'): JobSummary {
    const row = this.transitions.cancel(id, actor) ?? notFound(id);
    this.onChanged([id]);
    if (row.status === 'running') this.runner?.cancelRequested(id);
    return this.summaries([row])[0];
  }

  /**
   * Terminal: a new job for the same work (the second "try again" works too), and the failure
   * counts as seen. Queued: run now. A permanent failure (a retry cannot fix it) is retried only
   * when `force` says the archivist asked for it knowing that.
   */
  retry(id: number, opts: { force?: boolean } = {}, actor = 'user'): { job: JobSummary; created: boolean } {
    const row = this.queries.get(id) ?? notFound(id);
    if (row.status === 'queued') {
      this.transitions.runNow(id, actor);
      this.onChanged([id]);
      this.runner?.wake();
      return { job: this.summaries([this.queries.get(id)!])[0], created: false };
    }
    if (row.status === 'running')
      throw new CallFailure('conflict', `Job ${id} is running; cancel it first or wait for it to finish`);
    if (row.status === 'failed' && row.error_kind === 'permanent' && !opts.force)
      throw new CallFailure('conflict', permanentFailureMessage(row));
    return this.transitions.transaction(() => {
      const again = this.enqueue({ type: row.type, payload: JSON.parse(row.payload), priority: row.priority }, actor, {
        supersedeFailures: true,
      });
      // A job without a subject has no "same work" to match: this failure is the one answered.
      const seen = row.status === 'failed' ? this.transitions.acknowledge([id], actor, { supersededBy: again.job.id }) : [];
      if (seen.length) this.onChanged(seen);
      return again;
    });
  }

  /** Retries every unseen failure a retry may fix; permanent ones are left for the archivist and counted. */
  retryAllFailed(types?: string[], actor = 'user'): { requeued: number; skippedPermanent: number } {
    const failed = this.queries.unresolvedFailures(types);
    const retryable = failed.filter((r) => r.error_kind !== 'permanent');
    const out = this.transitions.transaction(() => {
      const enqueued = this.enqueueMany(
        retryable.map((r) => ({ type: r.type, payload: JSON.parse(r.payload), priority: r.priority })),
        actor,
        { supersedeFailures: true },
      );
      const seen = this.transitions.acknowledge(
        retryable.map((r) => r.id),
        actor,
        { retriedAll: true },
      );
      if (seen.length) this.onChanged(seen);
      return enqueued;
    });
    return { requeued: out.filter((o) => o.created).length, skippedPermanent: failed.length - retryable.length };
  }

  /** Dismisses failures (they stay in the list, out of the badge); audited per job. */
  acknowledge(target: { ids: number[] } | { all: true }, actor = 'user'): number {
    const ids = 'ids' in target ? target.ids : this.transitions.unseenFailures().map((f) => f.id);
    const done = this.transitions.acknowledge(ids, actor, { dismissed: true });
    if (done.length) this.onChanged(done);
    return done.length;
  }

  /**
   * The photos on screen now: their queued jobs run first; jobs raised for photos no longer on
   * screen go back to their turn. Visible tiles of a large import get their thumbnails first,
   * whatever the sort order, instead of waiting behind the whole import.
   */
  inView(photoIds: readonly number[]): number {
    const { raised } = this.transitions.prioritize(
      photoIds.map((id) => `photo:${id}`),
      IN_VIEW_PRIORITY,
    );
    if (raised) this.runner?.wake();
    return raised;
  }

  /** Failures nobody has dismissed or retried yet. */
  unseenFailed(): number {
    return this.queries.unseenFailed();
  }

  /** Summaries with the photo each job is about named (one read for the lot). */
  summaries(rows: readonly JobRow[]): JobSummary[] {
    const ids = new Set<number>();
    for (const r of rows) {
      const id = subjectPhotoId(r.subject);
      if (id != null) ids.add(id);
    }
    const names = ids.size ? this.photoNames([...ids]) : new Map<number, string>();
    return rows.map((r) => {
      const id = subjectPhotoId(r.subject);
      return toSummary(r, id != null ? names.get(id) : undefined);
    });
  }

  get(id: number): JobDetails {
    const r = this.queries.get(id) ?? notFound(id);
    let payload: unknown = r.payload;
    try {
      payload = JSON.parse(r.payload);
    } catch {
      /* shown raw */
    }
    return {
      ...this.summaries([r])[0],
      payload,
      errorStack: r.error_stack,
      claimedBy: r.claimed_by,
      leaseExpiresAt: r.lease_expires_at,
      priority: r.priority,
      audit: this.queries.auditTrail(id).map((a) => ({ ...a, data: JSON.parse(a.data) as Record<string, unknown> })),
    };
  }

  list(filter: JobListFilter) {
    const { rows, total } = this.queries.list(filter);
    const items = this.summaries(rows);
    return { items, total, nextBeforeId: rows.length === filter.limit ? rows[rows.length - 1].id : null };
  }

  types() {
    return this.registry.names().map((type) => {
      const definition = this.registry.definition(type)!;
      return {
        type,
        label: definition.ui.label,
        description: definition.description,
        diagnostic: !!definition.diagnostic,
        startable: !!definition.ui.startable,
      };
    });
  }

  counts(): JobCounts {
    return this.queries.counts();
  }
}

/** Why a permanent failure is not simply run again, and what the archivist can do instead. */
export function permanentFailureMessage(row: Pick<JobRow, 'id' | 'error_message'>): string {
  const why = row.error_message ? ` (${row.error_message.replace(/[.\s]+$/, '')})` : '';
  return `Job ${row.id} was not retried: it failed for a reason a retry cannot fix${why}. Fix the cause first, or retry anyway.`;
}

function notFound(id: number): never {
  throw new CallFailure('not_found', `There is no job ${id}`);
}
