/**
 * Jobs: a tile per state with live counts, a virtualised live list, and a details panel with the
 * error, the stack and the audit trail. Actions: start, cancel, retry, retry all failed, pause.
 */
import { useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { client } from '../api/client';
import { useEvent, useQuery } from '../api/hooks';
import type { JobCounts, JobSummary } from '../../../shared/contract';
import { JOB_STATUSES } from '../../../shared/jobs/states';
import { navigate } from '../router';
import { STATUS_LABEL, formatTime, relativeTo } from '../format';
import { useJobList } from './useJobList';
import { JobDetailsPanel } from './JobDetailsPanel';

export function JobsScreen({ selectedId }: { selectedId?: number }) {
  const countsQuery = useQuery('jobs.counts', {});
  const types = useQuery('jobs.types', {});
  const [liveCounts, setLiveCounts] = useState<{ counts: JobCounts; paused: boolean }>();
  useEvent('jobs.changed', (e) => setLiveCounts({ counts: e.counts, paused: e.paused }));
  const counts = liveCounts?.counts ?? countsQuery.data?.counts;
  const paused = liveCounts?.paused ?? countsQuery.data?.paused ?? false;

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

  return (
    <section className="screen jobs-screen" aria-labelledby="jobs-title">
      <header className="screen-head">
        <h1 id="jobs-title">Jobs</h1>
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
                `Started ${startType}`,
              )
            }
          >
            Start
          </button>
          <button
            onClick={() =>
              act(
                client.call('jobs.retryAllFailed', {}).then((r) => r),
                'Retrying every unresolved failure',
              )
            }
            disabled={!counts?.failed}
          >
            Retry all failed
          </button>
          <button
            className={paused ? 'primary' : ''}
            onClick={() =>
              act(client.call('jobs.setPaused', { paused: !paused }), paused ? 'Processing resumed' : 'Processing paused')
            }
            aria-pressed={paused}
          >
            {paused ? 'Resume processing' : 'Pause processing'}
          </button>
        </div>
      </header>
      {message && (
        <p className={`flash flash-${message.kind}`} role={message.kind === 'error' ? 'alert' : 'status'}>
          {message.text}
        </p>
      )}
      {paused && <p className="flash flash-warn">Processing is paused: no new jobs start; running ones finish.</p>}

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
              <span className="tile-count">{counts ? counts[s].toLocaleString() : '…'}</span>
              <span className="tile-label">{STATUS_LABEL[s]}</span>
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
            <p className="muted pad">Select a job to see its details, error and audit trail.</p>
          )}
        </aside>
      </div>
    </section>
  );
}

function JobList({ rows, total, selectedId, onEnd }: { rows: JobSummary[]; total: number; selectedId?: number; onEnd(): void }) {
  const parent = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => parent.current,
    estimateSize: () => 44,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const last = items[items.length - 1];
  if (last && last.index >= rows.length - 20 && rows.length < total) onEnd();

  const onKey = (e: React.KeyboardEvent) => {
    if (!rows.length) return;
    const i = rows.findIndex((r) => r.id === selectedId);
    const next = e.key === 'ArrowDown' ? Math.min(rows.length - 1, i + 1) : e.key === 'ArrowUp' ? Math.max(0, i - 1) : -1;
    if (next >= 0) {
      e.preventDefault();
      navigate(`/jobs/${rows[next].id}`);
      virtualizer.scrollToIndex(next);
    }
  };

  if (!rows.length) return <div className="empty small">No jobs{total ? '' : ' yet'}.</div>;
  return (
    <div className="job-list" ref={parent} tabIndex={0} onKeyDown={onKey} role="listbox" aria-label="Jobs" data-testid="job-list">
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {items.map((v) => {
          const j = rows[v.index];
          return (
            <div
              key={j.id}
              role="option"
              aria-selected={j.id === selectedId}
              className={`job-row${j.id === selectedId ? ' selected' : ''}`}
              style={{ position: 'absolute', top: 0, left: 0, right: 0, height: v.size, transform: `translateY(${v.start}px)` }}
              onClick={() => navigate(`/jobs/${j.id}`)}
              data-testid="job-row"
              data-job-id={j.id}
              data-status={j.status}
            >
              <span className={`pill pill-${j.status}`}>{STATUS_LABEL[j.status]}</span>
              <span className="job-type">{j.type}</span>
              <span className="job-subject">{j.subject ?? ''}</span>
              <span className="job-note">
                {j.status === 'running' && j.progress != null ? (
                  <progress max={1} value={j.progress} aria-label="Progress" />
                ) : j.status === 'queued' && j.runAfter > Date.now() + 1000 ? (
                  `retry ${relativeTo(j.runAfter)}`
                ) : j.errorMessage && j.status !== 'success' ? (
                  <span className="error-text" title={j.errorMessage}>
                    {j.errorMessage}
                  </span>
                ) : (
                  (j.resultSummary ?? '')
                )}
              </span>
              <span className="job-time">{formatTime(j.finishedAt ?? j.startedAt ?? j.createdAt)}</span>
              <span className="job-id">#{j.id}</span>
            </div>
          );
        })}
      </div>
    </div>
  );
}
