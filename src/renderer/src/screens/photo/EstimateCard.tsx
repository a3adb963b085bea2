/**
 * The photo's date as an archivist writes it (DACS, large), as EDTF for exchange, its status and
 * confidence, which findings set each end (links that move to them), conflicts with their
 * reasons, and the engine's explanation sentence by sentence.
 */
import { useSession, useSessionStore } from '../../session/session';
import type { EstimateView, EvidenceItem, PhotoDetails } from '../../../../shared/contract';
import { ESTIMATE_STATUS_LABEL } from '../library/labels';
import { SOURCE_LABEL, percent } from './evidenceFormat';
import { CLUE_RULE } from '../../../../shared/dating/clue-rule';
import { weakClueCount } from '../../../../shared/dating/clue-words';
import { CONFIDENCE_TERMS } from '../../../../shared/dating/confidence-terms';

interface Props {
  photo: PhotoDetails;
  estimate: EstimateView | undefined;
  items: EvidenceItem[];
  onSelect(id: number): void;
}

export function EstimateCard({ photo, estimate, items, onSelect }: Props) {
  // Open or closed, the "Why" stays that way from photo to photo (kept in the session).
  const session = useSessionStore();
  const open = useSession((s) => s.whyOpen);
  const status = estimate?.status ?? photo.estimateStatus;
  const dacs = estimate ? estimate.dacs : photo.estimateLabel;
  const byId = new Map(items.map((i) => [i.id, i]));
  const cite = (ids: number[]) =>
    ids.map((id, k) => (
      <span key={id}>
        {k > 0 && ', '}
        <button type="button" className="link-button cite" onClick={() => onSelect(id)} title="Show this finding">
          #{id}
          {byId.has(id) ? ` ${SOURCE_LABEL[byId.get(id)!.source]}` : ''}
        </button>
      </span>
    ));

  return (
    <section
      className={`evidence-card estimate-card estimate-${status}`}
      aria-labelledby="estimate-title"
      data-testid="evidence-area"
      data-status={status}
    >
      <div className="estimate-top">
        <h2 id="estimate-title">Estimate</h2>
        <span className={`pill pill-estimate pill-estimate-${status}`} data-testid="estimate-status">
          {ESTIMATE_STATUS_LABEL[status]}
        </span>
      </div>
      <p className={`estimate-dacs${dacs ? '' : ' estimate-none'}`} data-testid="estimate-dacs">
        {dacs ?? (status === 'conflict' ? 'No date while the bounds conflict' : 'Undated')}
      </p>
      {estimate && estimate.clueIds.length > 0 && (
        <p className="estimate-clues small" data-testid="estimate-clues" title={CLUE_RULE}>
          {weakClueCount(estimate.clueIds.length)} ({cite(estimate.clueIds)}), not counted as a date
          {estimate.withClues?.dacs && !estimate.dacs ? `: counted, they would say ${estimate.withClues.dacs}` : ''}
        </p>
      )}
      {estimate?.edtf && (
        <p className="estimate-sub">
          {estimate?.edtf && (
            <span title="Extended Date/Time Format (ISO 8601-2)">
              EDTF{' '}
              <span className="mono estimate-edtf" data-testid="estimate-edtf">
                {estimate.edtf}
              </span>
            </span>
          )}
          {estimate?.confidence != null ? (
            <span title={CONFIDENCE_TERMS.estimate.definition} data-testid="estimate-confidence">
              {CONFIDENCE_TERMS.estimate.name} {percent(estimate.confidence)}
            </span>
          ) : (
            estimate?.edtf && (
              <span title={CONFIDENCE_TERMS.estimate.definition} data-testid="estimate-confidence">
                set by hard bounds: no confidence applies
              </span>
            )
          )}
        </p>
      )}
      {estimate && (estimate.earliestSetBy.length > 0 || estimate.latestSetBy.length > 0) && (
        <p className="estimate-ends small">
          {estimate.earliestSetBy.length > 0 && <span>Earliest end set by {cite(estimate.earliestSetBy)}</span>}
          {estimate.latestSetBy.length > 0 && <span>Latest end set by {cite(estimate.latestSetBy)}</span>}
        </p>
      )}
      {estimate && estimate.conflicts.length > 0 && (
        <ul className="estimate-conflicts" role="alert" data-testid="estimate-conflicts">
          {estimate.conflicts.map((c, i) => (
            <li key={i}>
              <strong>Conflict</strong> between {cite(c.evidenceIds)}: {c.reason}
            </li>
          ))}
        </ul>
      )}
      {estimate && estimate.explanation.length > 0 && (
        <details
          className="estimate-why"
          open={open}
          onToggle={(e) => {
            if (e.currentTarget.open !== open) session.set({ whyOpen: e.currentTarget.open });
          }}
        >
          <summary>Why ({estimate.explanation.length})</summary>
          <ul data-testid="estimate-explanation">
            {estimate.explanation.map((s, i) => (
              <li key={i}>{s}</li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
