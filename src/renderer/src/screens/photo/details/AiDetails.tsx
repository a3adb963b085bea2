/**
 * A visual analysis: which backend and model, its summary, and each clue with the years it suggests.
 * A wide clue says so (clue-words.ts): its high evidence confidence comes from saying little.
 */
import type { EvidenceDetails } from '../../../../../shared/contract';
import { percent } from '../evidenceFormat';
import { CONFIDENCE_TERMS } from '../../../../../shared/dating/confidence-terms';
import { isWide, weakClueTag } from '../../../../../shared/dating/clue-words';

export function AiDetails({ details: d }: { details: EvidenceDetails['ai'] }) {
  return (
    <>
      <p className="small muted">
        Backend: {d.backend}
        {d.model ? ` (${d.model})` : ''}
      </p>
      {d.summary.trim() && <p className="small">{d.summary}</p>}
      {d.clues.length ? (
        <ul className="ev-clues">
          {d.clues.map((c, i) => (
            <li key={i}>
              <span className="ev-clue-cat">{c.category}</span> {c.observation}{' '}
              <span className="ev-clue-span" title={CONFIDENCE_TERMS.evidence.definition}>
                {c.earliestYear ?? '…'}–{c.latestYear ?? '…'} · {CONFIDENCE_TERMS.evidence.name} {percent(c.confidence)}
              </span>
              {isWide(c) && <span className="ev-clue-weak"> · {weakClueTag(c)}</span>}
            </li>
          ))}
        </ul>
      ) : (
        <p className="small muted">No clues recorded.</p>
      )}
    </>
  );
}
