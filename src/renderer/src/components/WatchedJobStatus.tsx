/** A job the archivist started from a dialog (an export, a Locate…): its progress while it runs, then what came of it. */
import type { JobSummary } from '../../../shared/contract';
import { client } from '../api/client';
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

interface FootProps {
  error?: string;
  job: JobSummary | undefined;
  what: string;
  testId: string;
  /** "Cancel export", "Stop searching": shown instead of Close while the job runs. */
  cancelLabel: string;
  submitLabel: string;
  canSubmit: boolean;
  onClose(): void;
}

/** The end of a dialog that starts a job: its error, the job's status, Cancel (while it runs) or Close, and the submit button. */
export function JobDialogFoot({ error, job, what, testId, cancelLabel, submitLabel, canSubmit, onClose }: FootProps) {
  const running = isActive(job);
  return (
    <>
      {error && (
        <p className="flash flash-error" role="alert">
          {error}
        </p>
      )}
      {job && <WatchedJobStatus job={job} what={what} testId={testId} />}
      <div className="form-actions modal-actions">
        {running ? (
          <button type="button" onClick={() => void client.call('jobs.cancel', { id: job!.id })}>
            {cancelLabel}
          </button>
        ) : (
          <button type="button" onClick={onClose}>
            Close
          </button>
        )}
        <button type="submit" className="primary" disabled={!canSubmit || running}>
          {submitLabel}
        </button>
      </div>
    </>
  );
}
