/** Findings from a duplicate: the duplicate scan that will produce them defines their fields; until then, shown as recorded. */
import type { EvidenceDetails } from '../../../../../shared/contract';

export function DuplicateDetails({ details }: { details: EvidenceDetails['duplicate'] }) {
  return (
    <dl className="ev-details-list">
      {Object.entries(details).map(([k, v]) => (
        <div key={k} className="fact-pair">
          <dt>{k}</dt>
          <dd className="mono">{typeof v === 'string' ? v : JSON.stringify(v)}</dd>
        </div>
      ))}
    </dl>
  );
}
