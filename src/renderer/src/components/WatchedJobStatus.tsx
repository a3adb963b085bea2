/** A job the archivist started from a dialog (an export, a Locate…): its progress while it runs, then what came of it. */
import type { JobSummary } from '../../../shared/contract';
import { isActive } from '../api/useWatchedJob';

interface Props {
  job: JobSummary;
  /** "Export", "Search": names the progress bar and the cancelled message. */
  what: string;
  testId: string;
}

export function WatchedJobStatus({ job, what, testId }: Props) {
  if (isActive(job))
    return (
      <div className="export-status" role="status" data-testid={testId} data-status={job.status}>
        <progress max={1} value={job.progress ?? undefined} aria-label={`${what} progress`} />
        <span className="muted small">{job.progressMessage ?? 'Starting…'}</span>
      </div>
    );
  return (
    <p
      className={`flash flash-${job.status === 'success' ? 'ok' : 'error'}`}
      role={job.status === 'success' ? 'status' : 'alert'}
      data-testid={testId}
      data-status={job.status}
    >
      {job.status === 'success'
        ? job.resultSummary
        : job.status === 'cancelled'
          ? `The ${what.toLowerCase()} was cancelled.`
          : job.errorMessage}
    </p>
  );
}
