/** A photo's jobs (newest first) with their live state; each links to its details on the Jobs page. */
import type { JobSummary } from '../../../../shared/contract';
import { STATUS_LABEL, formatTime, relativeTo } from '../../format';
import { jobTypeLabel } from '../../../../shared/jobs/types';

export function PhotoJobs({ jobs }: { jobs: JobSummary[] }) {
  const sorted = [...jobs].sort((a, b) => b.id - a.id);
  return (
    <section className="side-section" aria-labelledby="photo-jobs-title">
      <h3 id="photo-jobs-title">Jobs</h3>
      {!sorted.length ? (
        <p className="muted small">No jobs for this photo yet.</p>
      ) : (
        <ul className="photo-jobs">
          {sorted.map((j) => (
            <li key={j.id} className="photo-job" data-testid="photo-job" data-job-id={j.id} data-status={j.status}>
              <div className="photo-job-head">
                <span className={`pill pill-${j.status}`}>{STATUS_LABEL[j.status]}</span>
                <a href={`#/jobs/${j.id}`} className="photo-job-link" title="Open in Jobs">
                  {jobTypeLabel(j.type)} <span className="muted">#{j.id}</span>
                </a>
                <span className="photo-job-time">{formatTime(j.finishedAt ?? j.startedAt ?? j.createdAt)}</span>
              </div>
              {j.status === 'running' && (
                <div className="photo-job-progress">
                  <progress max={1} value={j.progress ?? undefined} aria-label={`Progress of job ${j.id}`} />
                  {j.progressMessage && <span className="muted small">{j.progressMessage}</span>}
                </div>
              )}
              {j.status === 'queued' && j.runAfter > Date.now() + 1000 && (
                <p className="muted small">Retrying {relativeTo(j.runAfter)}</p>
              )}
              {j.errorMessage && j.status !== 'success' && (
                <p className={`small ${j.status === 'failed' ? 'error-text' : 'warn-text'}`}>{j.errorMessage}</p>
              )}
              {j.status === 'success' && j.resultSummary && <p className="muted small">{j.resultSummary}</p>}
              {j.attempt > 1 && <p className="muted small">Attempt {j.attempt}</p>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
