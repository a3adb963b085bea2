/**
 * The findings about one photo, grouped by source, each with its dates (DACS and EDTF), its kind,
 * what it says, its details on demand, the job that produced it, and review controls. The item
 * with the keyboard's attention is highlighted; A / R / U act on it (see PhotoScreen).
 */
import { useEffect, useState } from 'react';
import type { EstimateView, EvidenceItem } from '../../../../shared/contract';
import {
  REVIEW_LABEL,
  SOURCE_HEADING,
  SOURCE_ORDER,
  conflictReasons,
  kindLabel,
  percent,
  yearSpan,
  type ReviewStatus,
} from './evidenceFormat';
import { DuplicateOrigin } from './DuplicateOrigin';

interface Props {
  items: EvidenceItem[];
  estimate: EstimateView | undefined;
  loading: boolean;
  focusedId: number | null;
  onFocusItem(id: number): void;
  onReview(item: EvidenceItem, status: ReviewStatus, note?: string | null): void;
  onEdit(item: EvidenceItem): void;
  onDelete(item: EvidenceItem): void;
  editingId: number | null;
  showHistory: boolean;
  onShowHistory(on: boolean): void;
}

/** Display (and keyboard) order: by source, current items oldest first, then replaced ones newest first. */
export function orderItems(items: EvidenceItem[]): EvidenceItem[] {
  return [...items].sort(
    (a, b) =>
      SOURCE_ORDER.indexOf(a.source) - SOURCE_ORDER.indexOf(b.source) ||
      Number(a.superseded) - Number(b.superseded) ||
      (a.superseded ? b.id - a.id : a.id - b.id),
  );
}

export function EvidenceList(props: Props) {
  const { items, estimate, loading, showHistory, onShowHistory } = props;
  const ordered = orderItems(items);
  const conflicts = conflictReasons(estimate?.conflicts ?? []);
  const earliest = new Set(estimate?.earliestSetBy ?? []);
  const latest = new Set(estimate?.latestSetBy ?? []);
  const groups = SOURCE_ORDER.map((s) => ({ source: s, items: ordered.filter((i) => i.source === s) })).filter(
    (g) => g.items.length,
  );
  const current = items.filter((i) => !i.superseded).length;
  const replaced = items.length - current;

  return (
    <section className="side-section evidence-section" aria-labelledby="evidence-title">
      <div className="section-head">
        <h3 id="evidence-title">Evidence {current > 0 && <span className="count">({current})</span>}</h3>
        <label className="check small history-toggle">
          <input type="checkbox" checked={showHistory} onChange={(e) => onShowHistory(e.target.checked)} />
          <span>Show history{showHistory && replaced > 0 ? ` (${replaced} earlier)` : ''}</span>
        </label>
      </div>
      {!items.length ? (
        <p className="muted small">
          {loading
            ? 'Loading…'
            : 'No findings yet. Re-run OCR to read text in the photo, or AI analysis for visual clues; or add your own constraint below.'}
        </p>
      ) : (
        <>
          <p className="kbd-hint small muted" aria-hidden="true">
            <kbd>A</kbd> accept · <kbd>R</kbd> reject · <kbd>U</kbd> reset · <kbd>↑</kbd>
            <kbd>↓</kbd> move · <kbd>Ctrl</kbd>+<kbd>Z</kbd> undo
          </p>
          {groups.map((g) => (
            <div key={g.source} className="ev-group" data-testid={`evidence-group-${g.source}`}>
              <h4 className={`ev-group-title src-${g.source}`}>{SOURCE_HEADING[g.source]}</h4>
              <ul className="ev-list" aria-label={SOURCE_HEADING[g.source]}>
                {g.items.map((item) => (
                  <EvidenceRow
                    key={item.id}
                    item={item}
                    focused={props.focusedId === item.id}
                    conflict={conflicts.get(item.id)}
                    setsEarliest={earliest.has(item.id)}
                    setsLatest={latest.has(item.id)}
                    editing={props.editingId === item.id}
                    {...props}
                  />
                ))}
              </ul>
            </div>
          ))}
        </>
      )}
    </section>
  );
}

interface RowProps extends Props {
  item: EvidenceItem;
  focused: boolean;
  conflict: string[] | undefined;
  setsEarliest: boolean;
  setsLatest: boolean;
  editing: boolean;
}

function EvidenceRow({
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
      aria-label={`#${item.id} ${item.label ?? yearSpan(item.earliest, item.latest)}, ${kindLabel(item)}, ${REVIEW_LABEL[item.reviewStatus]}${old ? `, ${oldTag(item)}` : ''}`}
      aria-current={focused && !old ? 'true' : undefined}
    >
      <div className="ev-head">
        <span className="ev-dates">
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
      <ItemDetails item={item} />
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

/** What the source found, in full: OCR line and confidence, AI clues, EXIF field, the manual note. */
function ItemDetails({ item }: { item: EvidenceItem }) {
  const d = item.details;
  // A manual constraint's summary already says everything (its note included).
  if (!d || !Object.keys(d).length || item.source === 'manual') return null;
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v : null);
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  let body: React.ReactNode;
  if (item.source === 'ocr') {
    body = (
      <dl className="ev-details-list">
        {str(d.line) && (
          <>
            <dt>Line read</dt>
            <dd className="ev-quote">{str(d.line)}</dd>
          </>
        )}
        {str(d.text) && (
          <>
            <dt>Date text</dt>
            <dd>“{str(d.text)}”</dd>
          </>
        )}
        {num(d.ocrConfidence) != null && (
          <>
            <dt>OCR confidence</dt>
            <dd>{num(d.ocrConfidence)}%</dd>
          </>
        )}
        {str(d.reason) && (
          <>
            <dt>Reading</dt>
            <dd>{str(d.reason)}</dd>
          </>
        )}
      </dl>
    );
  } else if (item.source === 'ai') {
    const clues = Array.isArray(d.clues) ? (d.clues as Record<string, unknown>[]) : [];
    body = (
      <>
        <p className="small muted">
          Backend: {str(d.backend) ?? '?'}
          {str(d.model) ? ` (${str(d.model)})` : ''}
        </p>
        {str(d.summary) && <p className="small">{str(d.summary)}</p>}
        {clues.length ? (
          <ul className="ev-clues">
            {clues.map((c, i) => (
              <li key={i}>
                <span className="ev-clue-cat">{str(c.category) ?? 'clue'}</span> {str(c.observation)}{' '}
                <span className="ev-clue-span">
                  {num(c.earliestYear) ?? '…'}–{num(c.latestYear) ?? '…'}
                  {num(c.confidence) != null ? ` · ${percent(num(c.confidence)!)}` : ''}
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="small muted">No clues recorded.</p>
        )}
      </>
    );
  } else if (item.source === 'duplicate') {
    body = <DuplicateOrigin details={d} />;
  } else {
    body = (
      <dl className="ev-details-list">
        {Object.entries(d).map(([k, v]) => (
          <div key={k} className="fact-pair">
            <dt>{k}</dt>
            <dd className="mono">{typeof v === 'string' ? v : JSON.stringify(v)}</dd>
          </div>
        ))}
      </dl>
    );
  }
  return (
    <details className="ev-details">
      <summary>Details</summary>
      {body}
    </details>
  );
}
