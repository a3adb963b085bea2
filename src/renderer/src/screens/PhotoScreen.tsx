/**
 * One photo, for dating it: the image with a timeline of its evidence under it; beside it the
 * explained estimate, re-runs with their live job state, the evidence grouped by source with
 * review controls, the archivist's own constraints, notes, and what the file says about itself.
 * Review, re-runs and the keyboard are hooks (photo/usePhotoReview, useReruns, usePhotoKeys).
 * In review mode (#/review/ID) next/previous step through the photos that need review.
 */
import { useEffect, useRef, useState } from 'react';
import { client } from '../api/client';
import { useQuery } from '../api/hooks';
import type { EvidenceItem } from '../../../shared/contract';
import { navigate } from '../router';
import { formatCount, plural } from '../format';
import { neighbours, useSession, useSessionStore } from '../session/session';
import { PhotoViewer, type ViewerHandle } from './photo/viewer/PhotoViewer';
import { PhotoFacts } from './photo/PhotoFacts';
import { PhotoJobs } from './photo/PhotoJobs';
import { EstimateCard } from './photo/EstimateCard';
import { EvidenceList } from './photo/EvidenceList';
import { ManualConstraintForm } from './photo/ManualConstraintForm';
import { NotesField } from './photo/NotesField';
import { CaptionDates } from './photo/CaptionDates';
import { useOcrReading } from './photo/OcrReading';
import { RerunControls } from './photo/RerunControls';
import { Timeline } from './photo/Timeline';
import { useEvidence } from './photo/useEvidence';
import { useReviewQueue } from './photo/useReviewQueue';
import { usePhotoReview } from './photo/usePhotoReview';
import { useReruns } from './photo/useReruns';
import { usePhotoKeys } from './photo/usePhotoKeys';
import { useInView } from './library/useVisibleWork';
import { LocateDialog } from '../components/LocateDialog';

export function PhotoScreen({ id, review = false }: { id: number; review?: boolean }) {
  // Re-read (by the cache) when main names this photo, or one of its jobs, as changed.
  const [jobIds, setJobIds] = useState<number[]>([]);
  const q = useQuery('photos.get', { id }, [id], {
    invalidateOn: ['photos.changed', 'jobs.changed'],
    about: { 'photos.changed': [id], 'jobs.changed': jobIds },
  });
  const photo = q.data?.id === id ? q.data : undefined;
  const ocr = useOcrReading(photo);
  const jobKey = photo?.jobs.map((j) => j.id).join(',') ?? '';
  useEffect(() => setJobIds(jobKey ? jobKey.split(',').map(Number) : []), [jobKey]);
  const electron = client.transport.kind === 'electron';
  // The open photo's queued jobs (its metadata, its zoom tiles) run before other queued work.
  useInView([id], true);

  const [showHistory, setShowHistory] = useState(false);
  // What Locate… looks for, fixed when it opens (the path changes once the photo is found).
  const [locating, setLocating] = useState<string | null>(null);
  const ev = useEvidence(id, showHistory);
  const rv = usePhotoReview(id, ev);
  const { current, focusedId, focusItem, message, setMessage } = rv;
  const editing = current.find((i) => i.id === rv.editingId && i.source === 'manual') ?? null;
  const reruns = useReruns(id, photo, q.reload);

  const reveal = async () => {
    const r = await client.call('photos.reveal', { id });
    if (!r.ok) setMessage({ kind: 'error', text: r.error.message });
  };

  // ---------------------------------------------------------------- navigation
  const queue = useReviewQueue(review, id);
  const session = useSessionStore();
  // The grid follows along, so going back lands on this photo.
  useEffect(() => session.set({ openedPhoto: id }), [session, id]);
  const prev = useSession((s) => neighbours(s.libraryOrder, id).prev);
  const next = useSession((s) => neighbours(s.libraryOrder, id).next);
  const position = useSession((s) => neighbours(s.libraryOrder, id).index);
  const shownTotal = useSession((s) => s.libraryOrder.total);
  const nav = review ? { prev: queue.prev, next: queue.next } : { prev, next };
  const go = (to: number | undefined) => to != null && navigate(`/${review ? 'review' : 'photo'}/${to}`);

  // Opening a photo (from the grid, a link, or stepping with J/K) puts the focus on its title, so
  // the keys work at once and a screen reader says which photo this is. A control on this screen
  // that keeps the focus (the Next button pressed again and again) is left alone.
  const titleRef = useRef<HTMLHeadingElement>(null);
  const screenRef = useRef<HTMLElement>(null);
  useEffect(() => {
    const active = document.activeElement;
    if (!active || active === document.body || !screenRef.current?.contains(active))
      titleRef.current?.focus({ preventScroll: true });
  }, [id]);

  const viewer = useRef<ViewerHandle>(null);
  usePhotoKeys({
    back: () => navigate('/library'),
    previous: () => go(nav.prev),
    next: () => go(nav.next),
    move: (step) => {
      if (!current.length) return;
      const at = current.findIndex((i) => i.id === focusedId);
      focusItem(current[Math.max(0, Math.min(current.length - 1, at + step))].id, true);
    },
    decide: rv.decideFocused,
    undo: () => void rv.undo(),
    zoom: (how) => {
      const v = viewer.current;
      if (how === 'in') v?.zoomIn();
      else if (how === 'out') v?.zoomOut();
      else if (how === 'fit') v?.fit();
      else v?.actualSize();
    },
  });

  const formRef = useRef<HTMLDivElement>(null);
  const startEdit = (item: EvidenceItem) => {
    rv.setEditingId(item.id);
    requestAnimationFrame(() => formRef.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' }));
  };

  return (
    <section className="screen photo-screen" aria-labelledby="photo-title" ref={screenRef}>
      <header className="photo-head">
        <a className="back-link" href="#/library" title="Back to the library (Esc)">
          ← Library
        </a>
        <h1 id="photo-title" tabIndex={-1} ref={titleRef} title={photo?.path}>
          {photo?.filename ?? (q.error ? `Photo ${id}` : 'Loading…')}
        </h1>
        <div className="photo-nav">
          {review ? (
            <span className="review-status" data-testid="review-status">
              <span className="review-badge">Review mode</span>
              <span className="review-left" data-testid="review-left">
                {queue.loaded ? `${plural(queue.left, 'photo')} left to review` : '…'}
              </span>
              <a href={`#/photo/${id}`} className="small" title="Leave review mode and stay on this photo">
                Exit review
              </a>
            </span>
          ) : (
            position != null && (
              <span className="muted small photo-position">
                {formatCount(position + 1)} of {formatCount(shownTotal)}
              </span>
            )
          )}
          <button onClick={() => go(nav.prev)} disabled={nav.prev == null} title="Previous photo (← or K)">
            ‹ Previous
          </button>
          <button onClick={() => go(nav.next)} disabled={nav.next == null} title="Next photo (→ or J)">
            Next ›
          </button>
        </div>
      </header>

      {review && queue.loaded && !queue.currentNeedsReview && (
        <p className="flash flash-ok review-done" role="status">
          {queue.left === 0 ? (
            <>
              Nothing left to review. <a href="#/library">Back to the library</a>
            </>
          ) : (
            <>
              This photo is reviewed.{' '}
              {nav.next != null && (
                <button className="link-button" onClick={() => go(nav.next)}>
                  Next photo to review (J)
                </button>
              )}
            </>
          )}
        </p>
      )}

      {q.error && !photo && (
        <p className="flash flash-error" role="alert">
          {q.error.message}
        </p>
      )}

      {photo && (
        <div className="photo-body">
          <div className="photo-main">
            <PhotoViewer key={photo.id} ref={viewer} photo={photo}>
              {ocr.overlay}
            </PhotoViewer>
            <Timeline items={current} estimate={ev.estimate} focusedId={focusedId} onSelect={(i) => focusItem(i, true)} />
          </div>
          <aside className="photo-side" aria-label="Dating this photo">
            <EstimateCard photo={photo} estimate={ev.estimate} items={ev.items} onSelect={(i) => focusItem(i, true)} />
            {message && (
              <p className={`flash flash-${message.kind}`} role={message.kind === 'error' ? 'alert' : 'status'}>
                {message.text}
              </p>
            )}
            {ev.error && (
              <p className="flash flash-error" role="alert">
                {ev.error}
              </p>
            )}
            {rv.history.last && (
              <p className="undo-line small" data-testid="undo-line">
                <button className="link-button" onClick={() => void rv.undo()} title="Undo (Ctrl+Z)">
                  Undo
                </button>{' '}
                <span className="muted">{rv.history.last.label}</span>
              </p>
            )}
            <RerunControls jobs={photo.jobs} busy={reruns.busy} notes={reruns.notes} onRerun={(t) => void reruns.rerun(t)} />
            {photo.missing && (
              <div className="warn-box missing-box" role="status">
                <span>
                  <strong>File missing.</strong> It is not at {photo.path} any more: it may have been moved, renamed or deleted.
                </span>
                <button onClick={() => setLocating(`${photo.filename}, last seen at ${photo.path}.`)}>Locate…</button>
              </div>
            )}
            {locating && (
              <LocateDialog lookingFor={locating} photoIds={[photo.id]} electron={electron} onClose={() => setLocating(null)} />
            )}
            {photo.metadataStatus === 'failed' && !photo.missing && (
              <div className="error-box">
                <strong>Metadata could not be read: </strong>
                {photo.metadataError ?? 'see the job below'}
              </div>
            )}

            <EvidenceList
              items={ev.items}
              estimate={ev.estimate}
              loading={ev.loading}
              focusedId={focusedId}
              onFocusItem={(i) => focusItem(i)}
              onReview={(item, status, note) => void rv.reviewItem(item, status, note)}
              onEdit={startEdit}
              onDelete={(item) => void rv.removeManual(item)}
              editingId={editing?.id ?? null}
              showHistory={showHistory}
              onShowHistory={setShowHistory}
            />
            {ocr.panel}
            <div ref={formRef}>
              <ManualConstraintForm
                photoId={id}
                editing={editing}
                onCancelEdit={() => rv.setEditingId(null)}
                onSaved={(change, what) => {
                  ev.applyChange(change);
                  rv.history.refresh();
                  rv.setEditingId(null);
                  focusItem(change.item.id);
                  setMessage({ kind: 'ok', text: what });
                }}
              />
            </div>
            <NotesField photoId={id} notes={photo.notes} onSaved={rv.history.refresh} />
            <CaptionDates
              photoId={id}
              notes={photo.notes}
              onAdded={(change, what) => {
                ev.applyChange(change);
                rv.history.refresh();
                focusItem(change.item.id);
                setMessage({ kind: 'ok', text: what });
              }}
            />

            <PhotoFacts
              photo={photo}
              onReveal={electron ? () => void reveal() : undefined}
              onScanChanged={(text) => {
                ev.reload();
                q.reload();
                rv.history.refresh();
                setMessage({ kind: 'ok', text });
              }}
            />
            <PhotoJobs jobs={photo.jobs} />
          </aside>
        </div>
      )}
    </section>
  );
}
