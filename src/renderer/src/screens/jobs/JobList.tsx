/**
 * The live, virtualised list of jobs: each row says what kind of work it is and which photo it is
 * about (linked to the photo), its state and its latest word (progress, retry time, error, result).
 * A failure nobody has seen yet is marked "new".
 *
 * A row is a list item, not an option: it holds two links (the job's details, its photo), and an
 * interactive row around them would nest controls that a screen reader cannot reach. ↑/↓ on the
 * list still move the selection.
 */
import { useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { JobSummary } from '../../../../shared/contract';
import { navigate } from '../../router';
import { STATUS_LABEL, formatTime, relativeTo } from '../../format';
import { subjectLabel, typeLabel } from './jobWords';

interface Props {
  rows: JobSummary[];
  total: number;
  selectedId?: number;
  onEnd(): void;
}

export function JobList({ rows, total, selectedId, onEnd }: Props) {
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
    <div className="job-list" ref={parent} tabIndex={0} onKeyDown={onKey} role="region" aria-label="Jobs" data-testid="job-list">
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }} role="list" aria-label="Jobs, newest first">
        {items.map((v) => {
          const j = rows[v.index];
          const unseen = j.status === 'failed' && j.acknowledgedAt == null;
          return (
            <div
              key={j.id}
              role="listitem"
              className={`job-row${j.id === selectedId ? ' selected' : ''}${unseen ? ' unseen' : ''}`}
              style={{ position: 'absolute', top: 0, left: 0, right: 0, height: v.size, transform: `translateY(${v.start}px)` }}
              onClick={() => navigate(`/jobs/${j.id}`)}
              data-testid="job-row"
              data-job-id={j.id}
              data-type={j.type}
              data-status={j.status}
            >
              <span className={`pill pill-${j.status}`}>{STATUS_LABEL[j.status]}</span>
              <span className="job-main">
                <a
                  className="job-type"
                  href={`#/jobs/${j.id}`}
                  aria-current={j.id === selectedId ? 'true' : undefined}
                  onClick={(e) => e.stopPropagation()}
                  data-testid="job-open"
                >
                  {typeLabel(j.type)}
                </a>
                <span className="job-subject">
                  {j.photo ? (
                    <a
                      href={`#/photo/${j.photo.id}`}
                      onClick={(e) => e.stopPropagation()}
                      title={`Open ${j.photo.filename}`}
                      data-testid="job-photo-link"
                    >
                      {j.photo.filename}
                    </a>
                  ) : (
                    subjectLabel(j)
                  )}
                </span>
              </span>
              <span className="job-note">
                {j.status === 'running' && j.progress != null ? (
                  <progress max={1} value={j.progress} aria-label="Progress" />
                ) : j.status === 'queued' && j.runAfter > Date.now() + 1000 ? (
                  `retrying ${relativeTo(j.runAfter)}${j.errorMessage ? ` · ${j.errorMessage}` : ''}`
                ) : j.errorMessage && j.status !== 'success' ? (
                  <span className="error-text" title={j.errorMessage}>
                    {unseen && <span className="new-mark">new</span>}
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
