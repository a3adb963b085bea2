/**
 * One job, for the archivist: what it is about (the photo, linked), what happened in plain words,
 * and what makes sense next. A permanent failure is not retried blindly: the panel says why and
 * offers the fix, "Retry anyway" and "Dismiss". Internals (the worker's id, the payload, the
 * technical error text, raw audit rows) stay under "Technical details".
 */
import { useEffect, useState } from 'react';
import { client } from '../api/client';
import { useQuery } from '../api/hooks';
import type { JobDetails } from '../../../shared/contract';
import { STATUS_LABEL, formatTime, relativeTo } from '../format';
import { navigate } from '../router';
import { actorLabel, auditLabel, permanentRemedy, subjectLabel, typeLabel } from './jobs/jobWords';

type Message = { kind: 'ok' | 'error'; text: string };

export function JobDetailsPanel({ id, onMessage }: { id: number; onMessage(m: Message): void }) {
  const q = useQuery('jobs.get', { id }, [], { invalidateOn: ['jobs.changed'], about: { 'jobs.changed': [id] } });
  // "Stopping job N…" is replaced by what became of it once it has stopped (it used to stay).
  const [stopping, setStopping] = useState<number | null>(null);
  const status = q.data?.id === id ? q.data.status : undefined;
  useEffect(() => {
    if (stopping !== id || !status || status === 'queued' || status === 'running') return;
    setStopping(null);
    onMessage(
      status === 'cancelled'
        ? { kind: 'ok', text: `Job ${id} cancelled` }
        : { kind: 'ok', text: `Job ${id} finished before it could be stopped (${STATUS_LABEL[status].toLowerCase()})` },
    );
  }, [stopping, status, id, onMessage]);
  if (q.error) return <p className="flash flash-error pad">{q.error.message}</p>;
  const j = q.data;
  if (!j) return <p className="muted pad">Loading…</p>;
  const active = j.status === 'queued' || j.status === 'running';
  const permanent = j.status === 'failed' && j.errorKind === 'permanent';
  const unseen = j.status === 'failed' && j.acknowledgedAt == null;

  const cancel = async () => {
    const r = await client.call('jobs.cancel', { id });
    if (r.ok && r.value.status !== 'cancelled') setStopping(id);
    onMessage(
      r.ok
        ? { kind: 'ok', text: r.value.status === 'cancelled' ? `Job ${id} cancelled` : `Stopping job ${id}…` }
        : { kind: 'error', text: r.error.message },
    );
    q.reload();
  };
  const retry = async (force = false) => {
    const r = await client.call('jobs.retry', { id, force });
    if (!r.ok) return onMessage({ kind: 'error', text: r.error.message });
    onMessage({
      kind: 'ok',
      text: r.value.created ? `Started job ${r.value.job.id} to retry job ${id}` : `Job ${r.value.job.id} runs now`,
    });
    if (r.value.job.id !== id) navigate(`/jobs/${r.value.job.id}`);
    else q.reload();
  };
  const dismiss = async () => {
    const r = await client.call('jobs.acknowledge', { ids: [id] });
    onMessage(r.ok ? { kind: 'ok', text: `Dismissed the failure of job ${id}` } : { kind: 'error', text: r.error.message });
    q.reload();
  };

  const about = subjectLabel(j);
  const remedy = permanent ? permanentRemedy(j) : null;
  return (
    <div className="details" data-testid="job-details">
      <div className="details-head">
        <h2>
          {typeLabel(j.type)}
          {about && <span className="details-about"> · {about}</span>} <span className="muted">#{j.id}</span>
        </h2>
        <span className={`pill pill-${j.status}`} data-testid="details-status">
          {STATUS_LABEL[j.status]}
          {j.cancelRequested && j.status === 'running' ? ' · stopping' : ''}
        </span>
      </div>
      {j.photo && (
        <p className="details-photo">
          <a href={`#/photo/${j.photo.id}`} data-testid="details-photo-link">
            Open {j.photo.filename}
          </a>
        </p>
      )}
      {j.errorMessage && (
        <div className={j.status === 'failed' ? 'error-box' : 'warn-box'} role={j.status === 'failed' ? 'alert' : undefined}>
          <strong>{j.status === 'failed' ? 'Failed: ' : 'Last error: '}</strong>
          <span data-testid="details-error">{j.errorMessage}</span>
          {remedy && (
            <p className="details-remedy" data-testid="details-remedy">
              {remedy.why}
            </p>
          )}
          {j.status === 'failed' && !unseen && <p className="details-remedy muted">You have seen this failure.</p>}
        </div>
      )}
      <div className="details-actions">
        {active && (
          <button onClick={() => void cancel()} disabled={j.cancelRequested}>
            Cancel
          </button>
        )}
        {remedy?.fix && (
          <a className="button-link primary" href={remedy.fix.href}>
            {remedy.fix.label}
          </a>
        )}
        {permanent ? (
          <button onClick={() => void retry(true)} title="Run it again although the same failure is expected">
            Retry anyway
          </button>
        ) : (
          (j.status === 'failed' ||
            j.status === 'cancelled' ||
            j.status === 'success' ||
            (j.status === 'queued' && j.runAfter > Date.now())) && (
            <button onClick={() => void retry()} className="primary">
              {j.status === 'queued' ? 'Run now' : j.status === 'success' ? 'Run again' : 'Retry'}
            </button>
          )
        )}
        {unseen && (
          <button onClick={() => void dismiss()} title="Keep it in the list but stop counting it as new">
            Dismiss
          </button>
        )}
      </div>
      {j.status === 'running' && j.progress != null && (
        <p>
          <progress max={1} value={j.progress} /> {Math.round(j.progress * 100)}% {j.progressMessage ?? ''}
        </p>
      )}
      <dl className="facts">
        <dt>Tries</dt>
        <dd>
          {j.attempt} of {j.maxRetries + 1}
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
      </dl>
      <h3>History</h3>
      <table className="audit" data-testid="job-history">
        <colgroup>
          <col className="audit-when" />
          <col />
          <col className="audit-by" />
        </colgroup>
        <thead>
          <tr>
            <th>When</th>
            <th>What happened</th>
            <th>By</th>
          </tr>
        </thead>
        <tbody>
          {j.audit.map((a) => (
            <tr key={a.id}>
              <td>{formatTime(a.at)}</td>
              <td>
                {auditLabel(a.event, a.data)}
                {typeof a.data.message === 'string' && <span className="audit-message">{a.data.message}</span>}
              </td>
              <td>{actorLabel(a.actor)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <TechnicalDetails job={j} />
    </div>
  );
}

/** What a developer needs and an archivist does not: closed unless asked for. */
function TechnicalDetails({ job: j }: { job: JobDetails }) {
  return (
    <details className="advanced" data-testid="job-advanced">
      <summary>Technical details</summary>
      <dl className="facts">
        <dt>Type</dt>
        <dd className="mono">{j.type}</dd>
        <dt>Subject</dt>
        <dd className="mono">{j.subject ?? '—'}</dd>
        <dt>Retries</dt>
        <dd>
          {j.retryCount} of {j.maxRetries} used · priority {j.priority}
          {j.errorKind ? ` · last error ${j.errorKind.replace('_', ' ')}` : ''}
        </dd>
        {j.claimedBy && (
          <>
            <dt>Held by</dt>
            <dd className="mono">{j.claimedBy}</dd>
          </>
        )}
      </dl>
      {j.errorStack && <pre className="payload">{j.errorStack}</pre>}
      <h4>Payload</h4>
      <pre className="payload">{JSON.stringify(j.payload, null, 2)}</pre>
      <h4>Audit entries</h4>
      <pre className="payload">
        {j.audit.map((a) => `${new Date(a.at).toISOString()} ${a.event} by ${a.actor} ${JSON.stringify(a.data)}`).join('\n')}
      </pre>
    </details>
  );
}
