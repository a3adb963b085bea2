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

export function toSummary(r: JobRow): JobSummary {
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
  ) {}

  attachRunner(runner: JobRunner | null): void {
    this.runner = runner;
  }

  /** Validates payloads against each type's schema and enqueues all in one transaction. */
  enqueueMany(items: readonly EnqueueInput[], actor = 'user'): { job: JobRow; created: boolean }[] {
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
    const out = this.transitions.enqueue(reqs, actor);
    const created = out.filter((o) => o.created).map((o) => o.job.id);
    if (created.length) {
      this.onChanged(created);
      this.runner?.wake();
    }
    return out;
  }

  enqueue(item: EnqueueInput, actor = 'user'): { job: JobSummary; created: boolean } {
    const [r] = this.enqueueMany([item], actor);
    return { job: toSummary(r.job), created: r.created };
  }

  cancel(id: number, actor = 'user'): JobSummary {
    const row = this.transitions.cancel(id, actor) ?? notFound(id);
    this.onChanged([id]);
    if (row.status === 'running') this.runner?.cancelRequested(id);
    return toSummary(row);
  }

  /** Terminal: a new job for the same work (the second "try again" works too). Queued: run now. */
  retry(id: number, actor = 'user'): { job: JobSummary; created: boolean } {
    const row = this.queries.get(id) ?? notFound(id);
    if (row.status === 'queued') {
      this.transitions.runNow(id, actor);
      this.onChanged([id]);
      this.runner?.wake();
      return { job: toSummary(this.queries.get(id)!), created: false };
    }
    if (row.status === 'running')
      throw new CallFailure('conflict', `Job ${id} is running; cancel it first or wait for it to finish`);
    return this.enqueue({ type: row.type, payload: JSON.parse(row.payload), priority: row.priority }, actor);
  }

  retryAllFailed(types?: string[], actor = 'user'): number {
    const failed = this.queries.unresolvedFailures(types);
    const out = this.enqueueMany(
      failed.map((r) => ({ type: r.type, payload: JSON.parse(r.payload), priority: r.priority })),
      actor,
    );
    return out.filter((o) => o.created).length;
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
      ...toSummary(r),
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
    const items = rows.map(toSummary);
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

function notFound(id: number): never {
  throw new CallFailure('not_found', `There is no job ${id}`);
}
