/**
 * "Run" (never run on this photo) or "Re-run" metadata / OCR / AI analysis, each with the live
 * state of its latest job for this photo (queued — and, when it waits to retry, why the last try
 * failed —, running with progress, failed with the reason, done). Pressing while a job is active
 * says so (main returns the active job instead of starting another); pressing after it finished
 * starts a new attempt, however many times.
 */
import type { JobSummary } from '../../../../shared/contract';
import { RERUN_JOB_TYPES, jobTypeInSentence, type RerunJobTypeName } from '../../../../shared/jobs/types';
import { relativeTo } from '../../format';

export type RerunType = RerunJobTypeName;

interface Props {
  jobs: JobSummary[];
  busy: RerunType | null;
  notes: Partial<Record<RerunType, { kind: 'ok' | 'error'; text: string }>>;
  onRerun(type: RerunType): void;
}

export function latestJob(jobs: JobSummary[], type: RerunType): JobSummary | undefined {
  let best: JobSummary | undefined;
  for (const j of jobs) if (j.type === type && (!best || j.id > best.id)) best = j;
  return best;
}

function JobState({ job }: { job: JobSummary | undefined }) {
  if (!job) return <span className="muted">Not run yet</span>;
  const link = (
    <a href={`#/jobs/${job.id}`} className="rerun-job-link" title="Open this job">
      #{job.id}
    </a>
  );
  switch (job.status) {
    case 'queued':
      return (
        <span>
          <span className="pill pill-queued">Queued</span>{' '}
          {job.runAfter > Date.now() + 1000 ? `retrying ${relativeTo(job.runAfter)}` : 'waiting for a worker'} {link}
          {job.errorMessage && (
            <span className="rerun-reason warn-text" data-testid="rerun-last-error">
              Last try: {job.errorMessage}
            </span>
          )}
        </span>
      );
    case 'running': {
      const pct = job.progress != null ? Math.round(job.progress * 100) : null;
      return (
        <span className="rerun-running">
          <span className="pill pill-running">Running{pct != null ? ` ${pct}%` : ''}</span>
          <progress max={1} value={job.progress ?? undefined} aria-label={`Progress of job ${job.id}`} />
          {link}
        </span>
      );
    }
    case 'failed':
      return (
        <span>
          <span className="pill pill-failed">Failed</span> {link}
          {job.errorMessage && <span className="rerun-reason error-text">{job.errorMessage}</span>}
        </span>
      );
    case 'cancelled':
      return (
        <span>
          <span className="pill pill-cancelled">Cancelled</span> {link}
        </span>
      );
    case 'success':
      return (
        <span>
          <span className="pill pill-success">Done</span> {link}
          {job.resultSummary && <span className="rerun-reason muted">{job.resultSummary}</span>}
        </span>
      );
  }
}

export function RerunControls({ jobs, busy, notes, onRerun }: Props) {
  return (
    <section className="rerun-box" aria-label="Re-run analyses">
      {RERUN_JOB_TYPES.map((type) => {
        const job = latestJob(jobs, type);
        const note = notes[type];
        return (
          <div
            key={type}
            className="rerun-row"
            data-testid={`rerun-${type}`}
            data-status={job?.status ?? 'none'}
            data-job-id={job?.id}
          >
            <button className="rerun-button small-button" onClick={() => onRerun(type)} disabled={busy === type}>
              {job ? 'Re-run' : 'Run'} {jobTypeInSentence(type)}
            </button>
            <div className="rerun-state small" aria-live="polite">
              <JobState job={job} />
              {note && (
                <span
                  className={`rerun-note ${note.kind === 'error' ? 'error-text' : 'muted'}`}
                  role={note.kind === 'error' ? 'alert' : 'status'}
                >
                  {note.text}
                </span>
              )}
            </div>
          </div>
        );
      })}
    </section>
  );
}
