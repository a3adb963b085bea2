/**
 * One photo, for dating it: the image with a timeline of its evidence under it; beside it the
 * explained estimate, re-runs with their live job state, the evidence grouped by source with
 * review controls, the archivist's own constraints, notes, and what the file says about itself.
 *
 * Keyboard (outside text fields): A accept, R reject, U / Backspace reset the highlighted finding;
 * ↑ / ↓ move between findings; J / → next photo, K / ← previous; Ctrl/Cmd+Z undoes the last review
 * decisions; Escape goes back. In review mode (#/review/ID) next/previous step through the photos
 * that need review.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { client } from '../api/client';
import { useEvent, useQuery } from '../api/hooks';
import type { EvidenceItem } from '../../../shared/contract';
import { navigate } from '../router';
import { plural } from '../format';
import { libraryNav } from './library/libraryNav';
import { PhotoImage } from './photo/PhotoImage';
import { PhotoFacts } from './photo/PhotoFacts';
import { PhotoJobs } from './photo/PhotoJobs';
import { EstimateCard } from './photo/EstimateCard';
import { EvidenceList, orderItems } from './photo/EvidenceList';
import { ManualConstraintForm } from './photo/ManualConstraintForm';
import { NotesField } from './photo/NotesField';
import { useOcrReading } from './photo/OcrReading';
import { RERUN_LABEL, RerunControls, latestJob, type RerunType } from './photo/RerunControls';
import { Timeline } from './photo/Timeline';
import { useEvidence } from './photo/useEvidence';
import { useReviewQueue } from './photo/useReviewQueue';
import { popReview, pushReview, restoreReview } from './photo/reviewUndo';
import { REVIEW_LABEL, type ReviewStatus } from './photo/evidenceFormat';

type Flash = { kind: 'ok' | 'error'; text: string };

const isTextField = (t: EventTarget | null) => {
  const el = t as HTMLElement | null;
  return !!el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));
};

export function PhotoScreen({ id, review = false }: { id: number; review?: boolean }) {
  const q = useQuery('photos.get', { id }, [id]);
  const photo = q.data?.id === id ? q.data : undefined;
  const ocr = useOcrReading(photo);
  const jobIds = useMemo(() => new Set(photo?.jobs.map((j) => j.id) ?? []), [photo]);
  useEvent('photos.changed', (e) => {
    if (e.all || e.ids.includes(id)) q.reload();
  });
  useEvent('jobs.changed', (e) => {
    if (e.changedIds.some((j) => jobIds.has(j))) q.reload();
  });

  const electron = client.transport.kind === 'electron';
  const [message, setMessage] = useState<Flash>();
  // A message meant for the photo being opened (an undo that happened on another photo).
  const flashForNext = useRef<Flash | undefined>(undefined);
  useEffect(() => {
    setMessage(flashForNext.current);
    flashForNext.current = undefined;
  }, [id]);

  // ---------------------------------------------------------------- evidence
  const [showHistory, setShowHistory] = useState(false);
  const ev = useEvidence(id, showHistory);
  const current = useMemo(() => orderItems(ev.items).filter((i) => !i.superseded), [ev.items]);
  const [chosenId, setChosenId] = useState<number | null>(null);
  const focusedId = current.some((i) => i.id === chosenId)
    ? chosenId
    : ((current.find((i) => i.reviewStatus === 'pending') ?? current[0])?.id ?? null);
  const [editingId, setEditingId] = useState<number | null>(null);
  const editing = current.find((i) => i.id === editingId && i.source === 'manual') ?? null;
  useEffect(() => {
    setChosenId(null);
    setEditingId(null);
  }, [id]);

  const focusItem = (itemId: number, moveDomFocus = false) => {
    setChosenId(itemId);
    if (moveDomFocus) requestAnimationFrame(() => document.getElementById(`evidence-item-${itemId}`)?.focus());
  };

  const reviewItem = async (item: EvidenceItem, status: ReviewStatus, note?: string | null) => {
    // Omitting the note would clear it: keep the one it has unless a new one was typed.
    const nextNote = note !== undefined ? note?.trim() || null : item.reviewNote;
    if (status === item.reviewStatus && nextNote === item.reviewNote) return;
    const r = await client.call('evidence.review', { id: item.id, status, note: nextNote ?? undefined });
    if (!r.ok) return setMessage({ kind: 'error', text: r.error.message });
    pushReview({ id: item.id, photoId: item.photoId, previousStatus: item.reviewStatus, previousNote: item.reviewNote, status });
    ev.applyChange(r.value);
    setMessage(undefined);
  };

  const undo = async () => {
    const e = popReview();
    if (!e) return setMessage({ kind: 'ok', text: 'Nothing to undo.' });
    const r = await client.call('evidence.review', {
      id: e.id,
      status: e.previousStatus,
      note: e.previousNote ?? undefined,
      undo: true,
    });
    if (!r.ok) {
      if (r.error.code === 'unavailable') restoreReview(e);
      return setMessage({ kind: 'error', text: `Could not undo: ${r.error.message}` });
    }
    const text = `Undone: #${e.id} is ${REVIEW_LABEL[e.previousStatus].toLowerCase()} again (was ${REVIEW_LABEL[e.status].toLowerCase()}).`;
    if (e.photoId === id) {
      ev.applyChange(r.value);
      focusItem(e.id, true);
      setMessage({ kind: 'ok', text });
    } else {
      flashForNext.current = { kind: 'ok', text };
      navigate(`/${review ? 'review' : 'photo'}/${e.photoId}`);
    }
  };

  const removeManual = async (item: EvidenceItem) => {
    const r = await client.call('evidence.removeManual', { id: item.id });
    if (!r.ok) return setMessage({ kind: 'error', text: r.error.message });
    if (editingId === item.id) setEditingId(null);
    ev.applyChange({ removedId: item.id, estimate: r.value.estimate });
    setMessage({ kind: 'ok', text: `Constraint #${item.id} deleted (kept in the history).` });
  };

  // ---------------------------------------------------------------- reruns
  const [rerunBusy, setRerunBusy] = useState<RerunType | null>(null);
  const [rerunNotes, setRerunNotes] = useState<Partial<Record<RerunType, Flash>>>({});
  useEffect(() => setRerunNotes({}), [id]);
  // A note ("already running", "started") is about the job that was active; it goes when that job ends.
  const terminalKey = (['metadata', 'ocr', 'ai_analysis'] as RerunType[])
    .map((t) => {
      const j = photo ? latestJob(photo.jobs, t) : undefined;
      return j && !['queued', 'running'].includes(j.status) ? `${j.id}` : '-';
    })
    .join('|');
  const lastTerminal = useRef(terminalKey);
  useEffect(() => {
    const before = lastTerminal.current.split('|');
    const now = terminalKey.split('|');
    lastTerminal.current = terminalKey;
    const ended = (['metadata', 'ocr', 'ai_analysis'] as RerunType[]).filter((_, i) => before[i] !== now[i] && now[i] !== '-');
    if (ended.length)
      setRerunNotes((n) => {
        const copy = { ...n };
        ended.forEach((t) => delete copy[t]);
        return copy;
      });
  }, [terminalKey]);

  const rerun = async (type: RerunType) => {
    setRerunBusy(type);
    const r = await client.call('photos.rerun', { ids: [id], type });
    setRerunBusy(null);
    setRerunNotes((n) => ({
      ...n,
      [type]: !r.ok
        ? { kind: 'error', text: r.error.message }
        : r.value.created
          ? { kind: 'ok', text: `Started: ${RERUN_LABEL[type]} runs again.` }
          : { kind: 'ok', text: `Already running: the ${RERUN_LABEL[type]} job for this photo has not finished yet.` },
    }));
    q.reload();
  };

  const reveal = async () => {
    const r = await client.call('photos.reveal', { id });
    if (!r.ok) setMessage({ kind: 'error', text: r.error.message });
  };

  // ---------------------------------------------------------------- navigation
  const queue = useReviewQueue(review, id);
  // The grid follows along, so going back lands on this photo.
  useEffect(() => libraryNav()?.focusPhoto(id), [id]);
  const libNav = libraryNav()?.neighbours(id);
  const nav = review ? { prev: queue.prev, next: queue.next } : { prev: libNav?.prev, next: libNav?.next };
  const go = (to: number | undefined) => to != null && navigate(`/${review ? 'review' : 'photo'}/${to}`);

  const onKey = useRef<(e: KeyboardEvent) => void>(() => {});
  onKey.current = (e: KeyboardEvent) => {
    if (e.defaultPrevented || e.altKey || isTextField(e.target)) return;
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    if ((e.ctrlKey || e.metaKey) && key === 'z' && !e.shiftKey) {
      e.preventDefault();
      void undo();
      return;
    }
    if (e.ctrlKey || e.metaKey || e.shiftKey) return;
    const at = current.findIndex((i) => i.id === focusedId);
    const item = at >= 0 ? current[at] : undefined;
    const decide = (status: ReviewStatus) => {
      if (!item) return;
      void reviewItem(item, status);
      // Accept/reject moves on to the next finding still waiting for a decision.
      if (status !== 'pending') {
        const after = [...current.slice(at + 1), ...current.slice(0, at)].find((i) => i.reviewStatus === 'pending');
        if (after) focusItem(after.id, true);
      }
    };
    switch (key) {
      case 'Escape':
        navigate('/library');
        break;
      case 'ArrowLeft':
      case 'k':
        if (nav.prev == null) return;
        go(nav.prev);
        break;
      case 'ArrowRight':
      case 'j':
        if (nav.next == null) return;
        go(nav.next);
        break;
      case 'ArrowUp':
      case 'ArrowDown': {
        if (!current.length) return;
        const to = key === 'ArrowDown' ? Math.min(current.length - 1, at + 1) : Math.max(0, at - 1);
        focusItem(current[to].id, true);
        break;
      }
      case 'a':
        if (!item) return;
        decide('accepted');
        break;
      case 'r':
        if (!item) return;
        decide('rejected');
        break;
      case 'u':
      case 'Backspace':
        if (!item) return;
        decide('pending');
        break;
      default:
        return;
    }
    e.preventDefault();
  };
  useEffect(() => {
    const listener = (e: KeyboardEvent) => onKey.current(e);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);

  const formRef = useRef<HTMLDivElement>(null);
  const startEdit = (item: EvidenceItem) => {
    setEditingId(item.id);
    requestAnimationFrame(() => formRef.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' }));
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
            libNav?.index != null && (
              <span className="muted small photo-position">
                {(libNav.index + 1).toLocaleString()} of {libNav.total.toLocaleString()}
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
            <PhotoImage key={`${photo.id}:${photo.thumbnailVersion}:${photo.missing}`} photo={photo} overlay={ocr.overlay} />
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
            <RerunControls jobs={photo.jobs} busy={rerunBusy} notes={rerunNotes} onRerun={(t) => void rerun(t)} />
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

            <EvidenceList
              items={ev.items}
              estimate={ev.estimate}
              loading={ev.loading}
              focusedId={focusedId}
              onFocusItem={(i) => focusItem(i)}
              onReview={(item, status, note) => void reviewItem(item, status, note)}
              onEdit={startEdit}
              onDelete={(item) => void removeManual(item)}
              editingId={editing?.id ?? null}
              showHistory={showHistory}
              onShowHistory={setShowHistory}
            />
            {ocr.panel}
            <div ref={formRef}>
              <ManualConstraintForm
                photoId={id}
                editing={editing}
                onCancelEdit={() => setEditingId(null)}
                onSaved={(change, what) => {
                  ev.applyChange(change);
                  setEditingId(null);
                  focusItem(change.item.id);
                  setMessage({ kind: 'ok', text: what });
                }}
              />
            </div>
            <NotesField photoId={id} notes={photo.notes} />

            <PhotoFacts photo={photo} onReveal={electron ? () => void reveal() : undefined} />
            <PhotoJobs jobs={photo.jobs} />
          </aside>
        </div>
      )}
    </section>
  );
}
