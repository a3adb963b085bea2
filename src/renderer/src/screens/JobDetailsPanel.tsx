import { client } from '../api/client';
import { useEvent, useQuery } from '../api/hooks';
import { STATUS_LABEL, formatTime, relativeTo } from '../format';
import { navigate } from '../router';

export function JobDetailsPanel({ id, onMessage }: { id: number; onMessage(m: { kind: 'ok' | 'error'; text: string }): void }) {
  const q = useQuery('jobs.get', { id }, [id]);
  useEvent('jobs.changed', (e) => {
    if (e.changedIds.includes(id)) q.reload();
  });
  if (q.error) return <p className="flash flash-error pad">{q.error.message}</p>;
  const j = q.data;
  if (!j) return <p className="muted pad">Loading…</p>;
  const active = j.status === 'queued' || j.status === 'running';

  const cancel = async () => {
    const r = await client.call('jobs.cancel', { id });
    onMessage(
      r.ok
        ? { kind: 'ok', text: r.value.status === 'cancelled' ? `Job ${id} cancelled` : `Stopping job ${id}…` }
        : { kind: 'error', text: r.error.message },
    );
    q.reload();
  };
  const retry = async () => {
    const r = await client.call('jobs.retry', { id });
    if (!r.ok) return onMessage({ kind: 'error', text: r.error.message });
    onMessage({
      kind: 'ok',
      text: r.value.created ? `Started job ${r.value.job.id} to retry job ${id}` : `Job ${r.value.job.id} runs now`,
    });
    if (r.value.job.id !== id) navigate(`/jobs/${r.value.job.id}`);
    else q.reload();
  };

  return (
    <div className="details" data-testid="job-details">
      <div className="details-head">
        <h2>
          {j.type} <span className="muted">#{j.id}</span>
        </h2>
        <span className={`pill pill-${j.status}`} data-testid="details-status">
          {STATUS_LABEL[j.status]}
          {j.cancelRequested && j.status === 'running' ? ' · stopping' : ''}
        </span>
      </div>
      <div className="details-actions">
        {active && (
          <button onClick={cancel} disabled={j.cancelRequested}>
            Cancel
          </button>
        )}
        {(j.status === 'failed' ||
          j.status === 'cancelled' ||
          j.status === 'success' ||
          (j.status === 'queued' && j.runAfter > Date.now())) && (
          <button onClick={retry} className="primary">
            {j.status === 'queued' ? 'Run now' : j.status === 'success' ? 'Run again' : 'Retry'}
          </button>
        )}
      </div>
      {j.errorMessage && (
        <div className={j.status === 'failed' ? 'error-box' : 'warn-box'} role={j.status === 'failed' ? 'alert' : undefined}>
          <strong>{j.status === 'failed' ? 'Failed: ' : 'Last error: '}</strong>
          <span data-testid="details-error">{j.errorMessage}</span>
          {j.errorStack && (
            <details>
              <summary>Technical details</summary>
              <pre>{j.errorStack}</pre>
            </details>
          )}
        </div>
      )}
      {j.status === 'running' && j.progress != null && (
        <p>
          <progress max={1} value={j.progress} /> {Math.round(j.progress * 100)}% {j.progressMessage ?? ''}
        </p>
      )}
      <dl className="facts">
        <dt>Subject</dt>
        <dd>{j.subject ?? '—'}</dd>
        <dt>Attempts</dt>
        <dd>
          {j.attempt} run{j.attempt === 1 ? '' : 's'} · {j.retryCount} of {j.maxRetries} retries used
        </dd>
        <dt>Created</dt>
        <dd>{formatTime(j.createdAt)}</dd>
        <dt>Started</dt>
        <dd>{formatTime(j.startedAt)}</dd>
        <dt>Finished</dt>
        <dd>{formatTime(j.finishedAt)}</dd>
        {j.status === 'queued' && (
          <>
            <dt>Runs</dt>
            <dd>{j.runAfter > Date.now() ? relativeTo(j.runAfter) : 'as soon as a worker is free'}</dd>
          </>
        )}
        {j.resultSummary && (
          <>
            <dt>Result</dt>
            <dd>{j.resultSummary}</dd>
          </>
        )}
        {j.claimedBy && (
          <>
            <dt>Held by</dt>
            <dd className="mono">{j.claimedBy}</dd>
          </>
        )}
      </dl>
      <h3>Payload</h3>
      <pre className="payload">{JSON.stringify(j.payload, null, 2)}</pre>
      <h3>Audit trail</h3>
      <table className="audit">
        <thead>
          <tr>
            <th>When</th>
            <th>Event</th>
            <th>By</th>
            <th>Details</th>
          </tr>
        </thead>
        <tbody>
          {j.audit.map((a) => (
            <tr key={a.id}>
              <td>{formatTime(a.at)}</td>
              <td>{a.event}</td>
              <td className="mono small">{a.actor}</td>
              <td className="small">{auditDetail(a.data)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function auditDetail(data: Record<string, unknown>): string {
  const parts: string[] = [];
  if (data.attempt != null) parts.push(`attempt ${data.attempt}`);
  if (data.message) parts.push(String(data.message));
  if (data.retryable === true) parts.push('will retry');
  if (data.permanent === true) parts.push('permanent');
  return parts.join(' · ');
}
