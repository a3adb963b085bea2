/**
 * One photo: the image, what its file says (metadata, dates as found, path), its jobs with live
 * state, and "Re-run metadata". Evidence review arrives in a later issue; its area shows only the
 * current estimate. ← / → step through the library's current order, Escape goes back to it.
 */
import { useEffect, useMemo, useState } from 'react';
import { client } from '../api/client';
import { useEvent, useQuery } from '../api/hooks';
import { navigate } from '../router';
import { ESTIMATE_STATUS_LABEL } from './library/labels';
import { libraryNav } from './library/libraryNav';
import { PhotoImage } from './photo/PhotoImage';
import { PhotoFacts } from './photo/PhotoFacts';
import { PhotoJobs } from './photo/PhotoJobs';

export function PhotoScreen({ id }: { id: number }) {
  const q = useQuery('photos.get', { id }, [id]);
  const photo = q.data?.id === id ? q.data : undefined;
  const jobIds = useMemo(() => new Set(photo?.jobs.map((j) => j.id) ?? []), [photo]);
  useEvent('photos.changed', (e) => {
    if (e.all || e.ids.includes(id)) q.reload();
  });
  useEvent('jobs.changed', (e) => {
    if (e.changedIds.some((j) => jobIds.has(j))) q.reload();
  });

  const electron = client.transport.kind === 'electron';
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string }>();
  const [busy, setBusy] = useState(false);
  useEffect(() => setMessage(undefined), [id]);

  // The grid follows along, so going back lands on this photo.
  useEffect(() => libraryNav()?.focusPhoto(id), [id]);
  const nav = libraryNav()?.neighbours(id);
  const go = (to: number | undefined) => to != null && navigate(`/photo/${to}`);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
      const t = e.target as HTMLElement | null;
      if (t && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName))) return;
      const n = libraryNav()?.neighbours(id);
      if (e.key === 'Escape') navigate('/library');
      else if (e.key === 'ArrowLeft' && n?.prev != null) navigate(`/photo/${n.prev}`);
      else if (e.key === 'ArrowRight' && n?.next != null) navigate(`/photo/${n.next}`);
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [id]);

  const rerun = async () => {
    setBusy(true);
    const r = await client.call('photos.rerun', { ids: [id], type: 'metadata' });
    setBusy(false);
    if (!r.ok) return setMessage({ kind: 'error', text: r.error.message });
    setMessage(
      r.value.created
        ? { kind: 'ok', text: 'Reading the metadata again: follow the new job below.' }
        : { kind: 'ok', text: 'Already running: the metadata job for this photo has not finished yet.' },
    );
    q.reload();
  };

  const reveal = async () => {
    const r = await client.call('photos.reveal', { id });
    if (!r.ok) setMessage({ kind: 'error', text: r.error.message });
  };

  return (
    <section className="screen photo-screen" aria-labelledby="photo-title">
      <header className="photo-head">
        <a className="back-link" href="#/library" title="Back to the library (Esc)">
          ← Library
        </a>
        <h1 id="photo-title" title={photo?.path}>
          {photo?.filename ?? (q.error ? `Photo ${id}` : 'Loading…')}
        </h1>
        <div className="photo-nav">
          {nav?.index != null && (
            <span className="muted small photo-position">
              {(nav.index + 1).toLocaleString()} of {nav.total.toLocaleString()}
            </span>
          )}
          <button onClick={() => go(nav?.prev)} disabled={nav?.prev == null} title="Previous photo (←)">
            ‹ Previous
          </button>
          <button onClick={() => go(nav?.next)} disabled={nav?.next == null} title="Next photo (→)">
            Next ›
          </button>
        </div>
      </header>

      {q.error && !photo && (
        <p className="flash flash-error" role="alert">
          {q.error.message}
        </p>
      )}

      {photo && (
        <div className="photo-body">
          <PhotoImage key={`${photo.id}:${photo.thumbnailVersion}:${photo.missing}`} photo={photo} />
          <aside className="photo-side" aria-label="About this photo">
            <div className="photo-actions">
              <button className="primary" onClick={() => void rerun()} disabled={busy}>
                Re-run metadata
              </button>
              {photo.metadataStatus === 'pending' && <span className="muted small">Reading the metadata…</span>}
            </div>
            {message && (
              <p className={`flash flash-${message.kind}`} role={message.kind === 'error' ? 'alert' : 'status'}>
                {message.text}
              </p>
            )}
            {photo.missing && (
              <div className="warn-box" role="status">
                <strong>File missing.</strong> It is not at {photo.path} any more: it may have been moved, renamed or deleted.
              </div>
            )}
            {photo.metadataStatus === 'failed' && !photo.missing && (
              <div className="error-box">
                <strong>Metadata could not be read: </strong>
                {photo.metadataError ?? 'see the job below'}
              </div>
            )}

            <section className="evidence-card" aria-labelledby="evidence-title" data-testid="evidence-area">
              <h2 id="evidence-title">Evidence &amp; estimate</h2>
              <div className="estimate-line">
                <span className="estimate-label">{photo.estimateLabel ?? 'Undated'}</span>
                <span className={`pill pill-estimate pill-estimate-${photo.estimateStatus}`}>
                  {ESTIMATE_STATUS_LABEL[photo.estimateStatus]}
                </span>
              </div>
            </section>

            <PhotoFacts photo={photo} onReveal={electron ? () => void reveal() : undefined} />
            <PhotoJobs jobs={photo.jobs} />
          </aside>
        </div>
      )}
    </section>
  );
}
