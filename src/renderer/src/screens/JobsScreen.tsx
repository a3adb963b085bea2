/**
 * Jobs: a tile per state with live counts (the Failed tile says how many failures are new), a
 * virtualised live list, and a details panel. Actions: start, cancel, retry, retry the failures a
 * retry may fix, dismiss failures, pause.
 */
import { useState } from 'react';
import { client } from '../api/client';
import { useQuery } from '../api/hooks';
import { JOB_STATUSES } from '../../../shared/jobs/states';
import { STATUS_LABEL, plural } from '../format';
import { useJobList } from './useJobList';
import { JobDetailsPanel } from './JobDetailsPanel';
import { JobList } from './jobs/JobList';
import { runningNow } from './jobs/runningNow';

export function JobsScreen({ selectedId }: { selectedId?: number }) {
  const countsQuery = useQuery('jobs.counts', {});
  const types = useQuery('jobs.types', {});
  // Kept current by each jobs.changed (api/hooks.ts), without a request.
  const counts = countsQuery.data?.counts;
  const paused = countsQuery.data?.paused ?? false;
  const unseenFailed = countsQuery.data?.unseenFailed ?? 0;
  // A worker holds a few claimed jobs in line behind the one it runs, all "running" in the table:
  // the tile counts what the workers can be running at once, and the rest as next in line.
  const health = useQuery('app.health', {});
  const running = counts ? runningNow(counts.running, health.data?.workers.alive) : undefined;

  const [statuses, setStatuses] = useState<string[]>([]);
  const [typeFilter, setTypeFilter] = useState('');
  const list = useJobList({ statuses, types: typeFilter ? [typeFilter] : [] });
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string }>();
  const [startType, setStartType] = useState('');

  const act = async (p: Promise<{ ok: boolean; error?: { message: string } }>, okText: string) => {
    const r = await p;
    setMessage(r.ok ? { kind: 'ok', text: okText } : { kind: 'error', text: r.error!.message });
  };

  const startable = (types.data ?? []).filter((t) => t.startable);

  const retryFailed = async () => {
    const r = await client.call('jobs.retryAllFailed', {});
    if (!r.ok) return setMessage({ kind: 'error', text: r.error.message });
    const { requeued, skippedPermanent: left } = r.value;
    const retried = requeued ? `Retrying ${plural(requeued, 'failed job')}.` : 'Nothing to retry.';
    const kept = left
      ? ` ${plural(left, 'failure')} ${left === 1 ? 'was' : 'were'} left alone: a retry cannot fix ${left === 1 ? 'it' : 'them'}. Open ${left === 1 ? 'it' : 'each'} to see why, then fix the cause, retry anyway or dismiss.`
      : '';
    setMessage({ kind: 'ok', text: retried + kept });
  };
  // The paused banner below says it; no second message.
  const togglePause = async () => {
    const r = await client.call('jobs.setPaused', { paused: !paused });
    setMessage(r.ok ? undefined : { kind: 'error', text: r.error.message });
  };

  return (
    <section className="screen jobs-screen" aria-labelledby="jobs-title">
      <header className="screen-head">
        <h1 id="jobs-title" tabIndex={-1}>
          Jobs
        </h1>
        <div className="toolbar">
          <label className="inline-field">
            <span>Start</span>
            <select value={startType} onChange={(e) => setStartType(e.target.value)} aria-label="Job type to start">
              <option value="">Choose a job…</option>
              {startable.map((t) => (
                <option key={t.type} value={t.type} title={t.description}>
                  {t.label}
                </option>
              ))}
            </select>
          </label>
          <button
            disabled={!startType}
            onClick={() =>
              act(
                client
                  .call('jobs.enqueue', { type: startType, payload: {} })
                  .then((r) =>
                    r.ok && !r.value.created
                      ? { ok: false, error: { message: `Job ${r.value.job.id} is already ${r.value.job.status}` } }
                      : r,
                  ),
                `Started ${startable.find((t) => t.type === startType)?.label ?? startType}`,
              )
            }
          >
            Start
          </button>
          <button
            onClick={() => void retryFailed()}
            disabled={!unseenFailed}
            title="Retry every new failure a retry may fix; failures a retry cannot fix are left for you"
          >
            Retry failed
          </button>
          <button
            onClick={() =>
              act(
                client.call('jobs.acknowledge', { all: true }),
                'Dismissed: the failures stay in the list, and only new ones are counted from now on',
              )
            }
            disabled={!unseenFailed}
            title="Keep the failures in the list but stop counting them as new"
          >
            Dismiss failures
          </button>
          <button className={paused ? 'primary' : ''} onClick={() => void togglePause()} aria-pressed={paused}>
            {paused ? 'Resume processing' : 'Pause processing'}
          </button>
        </div>
      </header>
      {message && (
        <p className={`flash flash-${message.kind}`} role={message.kind === 'error' ? 'alert' : 'status'}>
          {message.text}
        </p>
      )}
      {paused && (
        <p className="flash flash-warn" data-testid="paused-banner">
          Processing is paused: no new jobs start; running ones finish.
        </p>
      )}

      <div className="tiles" role="group" aria-label="Filter by state">
        {JOB_STATUSES.map((s) => {
          const on = statuses.includes(s);
          return (
            <button
              key={s}
              className={`tile tile-${s}${on ? ' tile-on' : ''}`}
              aria-pressed={on}
              onClick={() => setStatuses(on ? statuses.filter((x) => x !== s) : [...statuses, s])}
              data-testid={`tile-${s}`}
            >
              <span className="tile-count">
                {!counts ? '…' : s === 'running' && running ? running.now.toLocaleString() : counts[s].toLocaleString()}
              </span>
              <span className="tile-label">
                {STATUS_LABEL[s]}
                {s === 'running' && running && running.inLine > 0 && (
                  <span className="tile-new tile-in-line" data-testid="running-in-line">
                    {' '}
                    · {running.inLine.toLocaleString()} next in line
                  </span>
                )}
                {s === 'failed' && unseenFailed > 0 && (
                  <span className="tile-new" data-testid="failed-new">
                    {' '}
                    · {unseenFailed.toLocaleString()} new
                  </span>
                )}
              </span>
            </button>
          );
        })}
      </div>

      <div className="jobs-body">
        <div className="jobs-list-pane">
          <div className="list-head">
            <span>
              {list.total.toLocaleString()} job{list.total === 1 ? '' : 's'}
              {statuses.length ? ` · ${statuses.map((s) => STATUS_LABEL[s]).join(', ')}` : ''}
            </span>
            <select value={typeFilter} onChange={(e) => setTypeFilter(e.target.value)} aria-label="Filter by type">
              <option value="">All types</option>
              {(types.data ?? []).map((t) => (
                <option key={t.type} value={t.type}>
                  {t.label}
                </option>
              ))}
            </select>
          </div>
          {list.error && <p className="flash flash-error">{list.error}</p>}
          <JobList rows={list.rows} total={list.total} selectedId={selectedId} onEnd={list.loadMore} />
        </div>
        <aside className="jobs-details-pane" aria-label="Job details">
          {selectedId ? (
            <JobDetailsPanel id={selectedId} onMessage={setMessage} />
          ) : (
            <p className="muted pad">Select a job to see what it is about, what happened and what you can do.</p>
          )}
        </aside>
      </div>
    </section>
  );
}
