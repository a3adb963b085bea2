/**
 * The findings about one photo, grouped by source, each with its dates (DACS and EDTF), its kind,
 * what it says, its details on demand, the job that produced it, and review controls. The item
 * with the keyboard's attention is highlighted; A / R / U act on it (see PhotoScreen).
 */
import type { EstimateView, EvidenceItem } from '../../../../shared/contract';
import { SOURCE_HEADING, SOURCE_ORDER, conflictReasons, type ReviewStatus } from './evidenceFormat';
import { EvidenceRow } from './EvidenceRow';

export interface EvidenceListProps {
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

export function EvidenceList(props: EvidenceListProps) {
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
            : 'No findings yet. Run OCR to read text in the photo, or AI analysis for visual clues; or add your own constraint below.'}
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
