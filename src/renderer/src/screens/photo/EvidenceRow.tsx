/**
 * One finding in the evidence list: its dates (DACS and EDTF), kind, review state, what it says,
 * whether it sets an end of the estimate or conflicts, its details (one component per source),
 * the job that found it, and its review controls (and edit/delete for a manual constraint).
 */
import { useEffect, useState } from 'react';
import type { EvidenceItem } from '../../../../shared/contract';
import { REVIEW_LABEL, kindLabel, yearSpan, type ReviewStatus } from './evidenceFormat';
import type { EvidenceListProps } from './EvidenceList';
import { EvidenceDetails } from './details/EvidenceDetails';
import { CLUE_RULE } from '../../../../shared/dating/clue-rule';
import { weakClueFlag, yearsOfDays } from '../../../../shared/dating/clue-words';

interface RowProps extends EvidenceListProps {
  item: EvidenceItem;
  focused: boolean;
  conflict: string[] | undefined;
  setsEarliest: boolean;
  setsLatest: boolean;
  editing: boolean;
}

export function EvidenceRow({
  item,
  focused,
  conflict,
  setsEarliest,
  setsLatest,
  editing,
  onFocusItem,
  onReview,
  onEdit,
  onDelete,
}: RowProps) {
  const [noteOpen, setNoteOpen] = useState(false);
  const [note, setNote] = useState(item.reviewNote ?? '');
  const [confirmDelete, setConfirmDelete] = useState(false);
  useEffect(() => setNote(item.reviewNote ?? ''), [item.reviewNote]);
  const manual = item.source === 'manual';
  const old = item.superseded;
  const review = (status: ReviewStatus) => {
    const changedNote = noteOpen && note !== (item.reviewNote ?? '') ? note : undefined;
    onReview(item, status, changedNote);
    setNoteOpen(false);
  };
  const cls = [
    'ev-item',
    `ev-${item.reviewStatus}`,
    focused && !old ? 'focused' : '',
    conflict ? 'ev-conflict' : '',
    setsEarliest || setsLatest ? 'ev-sets-end' : '',
    old ? 'ev-superseded' : '',
    editing ? 'ev-editing' : '',
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <li
      id={`evidence-item-${item.id}`}
      className={cls}
      tabIndex={old ? undefined : focused ? 0 : -1}
      onFocus={(e) => {
        if (!old && e.target === e.currentTarget) onFocusItem(item.id);
      }}
      onMouseDown={() => !old && onFocusItem(item.id)}
      data-testid="evidence-item"
      data-evidence-id={item.id}
      data-source={item.source}
      data-review={item.reviewStatus}
      data-superseded={old ? 'true' : undefined}
      data-conflict={conflict ? 'true' : undefined}
      aria-label={`#${item.id} ${item.clue && !old ? 'weak clue: ' : ''}${item.label ?? yearSpan(item.earliest, item.latest)}, ${kindLabel(item)}, ${REVIEW_LABEL[item.reviewStatus]}${old ? `, ${oldTag(item)}` : ''}`}
      aria-current={focused && !old ? 'true' : undefined}
    >
      <div className="ev-head">
        <span className="ev-dates">
          {item.clue && !old && <span className="ev-label-clue">Weak clue:</span>}
          <span className="ev-label">{item.label ?? yearSpan(item.earliest, item.latest)}</span>
          {item.edtf && <span className="mono ev-edtf">{item.edtf}</span>}
        </span>
        <span className={`pill pill-review pill-review-${item.reviewStatus}`}>{REVIEW_LABEL[item.reviewStatus]}</span>
      </div>
      <div className="ev-kind">
        <span className="ev-id">#{item.id}</span> {kindLabel(item)}
        {old && <span className="ev-old-tag">{oldTag(item)}</span>}
      </div>
      <p className="ev-summary">{item.summary}</p>
      {item.clue && !old && (
        <p className="ev-flag ev-flag-clue" data-testid="evidence-clue" title={CLUE_RULE}>
          {weakClueFlag(yearsOfDays(item), item.clue)}
        </p>
      )}
      {(setsEarliest || setsLatest) && !old && (
        <p className="ev-flag ev-flag-end">
          Sets the {setsEarliest && setsLatest ? 'earliest and latest ends' : setsEarliest ? 'earliest end' : 'latest end'} of the
          estimate
        </p>
      )}
      {conflict?.map((r, i) => (
        <p key={i} className="ev-flag ev-flag-conflict">
          Conflict: {r}
        </p>
      ))}
      {item.reviewNote && !noteOpen && <p className="ev-note">Note: {item.reviewNote}</p>}
      <EvidenceDetails item={item} />
      <div className="ev-foot">
        {item.jobId != null ? (
          <a href={`#/jobs/${item.jobId}`} className="ev-job small" title="Open the job that found this">
            job #{item.jobId}
            {item.attempt != null ? `, attempt ${item.attempt}` : ''}
          </a>
        ) : manual && !old ? (
          <div className="ev-manual-actions">
            {confirmDelete ? (
              <span className="confirm small">
                Delete it?
                <button className="small-button danger" onClick={() => onDelete(item)}>
                  Delete
                </button>
                <button className="small-button" onClick={() => setConfirmDelete(false)}>
                  Keep
                </button>
              </span>
            ) : (
              <>
                <button className="link-button small" onClick={() => onEdit(item)} disabled={editing}>
                  {editing ? 'Editing below…' : 'Edit'}
                </button>
                <button className="link-button small" onClick={() => setConfirmDelete(true)}>
                  Delete
                </button>
              </>
            )}
          </div>
        ) : (
          <span className="small muted">{manual ? 'added by you' : ''}</span>
        )}
        {!old && (
          <div className="ev-actions" role="group" aria-label={`Review #${item.id}`}>
            <button
              className={`seg seg-accept${item.reviewStatus === 'accepted' ? ' on' : ''}`}
              aria-pressed={item.reviewStatus === 'accepted'}
              onClick={() => review('accepted')}
              title="Accept (A)"
            >
              Accept
            </button>
            <button
              className={`seg seg-reject${item.reviewStatus === 'rejected' ? ' on' : ''}`}
              aria-pressed={item.reviewStatus === 'rejected'}
              onClick={() => review('rejected')}
              title="Reject (R)"
            >
              Reject
            </button>
            <button
              className="seg"
              onClick={() => review('pending')}
              disabled={item.reviewStatus === 'pending'}
              title="Back to pending (U or Backspace)"
            >
              Reset
            </button>
            <button className="seg seg-plain" onClick={() => setNoteOpen((o) => !o)} aria-expanded={noteOpen}>
              Note
            </button>
          </div>
        )}
      </div>
      {noteOpen && !old && (
        <form
          className="ev-note-form"
          onSubmit={(e) => {
            e.preventDefault();
            // The form goes away: its finding keeps the focus (not <body>).
            e.currentTarget.closest('li')?.focus();
            review(item.reviewStatus);
          }}
        >
          <input
            type="text"
            value={note}
            maxLength={2000}
            onChange={(e) => setNote(e.target.value)}
            placeholder="Why you decided (optional)"
            aria-label={`Review note for #${item.id}`}
            autoFocus
            onKeyDown={(e) => {
              if (e.key === 'Escape') {
                e.stopPropagation();
                e.currentTarget.closest('li')?.focus();
                setNoteOpen(false);
              }
            }}
          />
          <button type="submit" className="small-button">
            Save note
          </button>
        </form>
      )}
    </li>
  );
}

/** Why a finding is history: deleted (manual), withdrawn (from a duplicate), or replaced by a later run. */
function oldTag(item: EvidenceItem): string {
  return item.source === 'manual' ? 'deleted' : item.source === 'duplicate' ? 'withdrawn' : 'replaced by a later run';
}
