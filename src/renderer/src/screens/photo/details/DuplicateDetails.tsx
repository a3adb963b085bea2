/** Where a finding from a duplicate came from: the copy (a link to it) and its original finding. */
import type { EvidenceDetails } from '../../../../../shared/contract';

export function DuplicateDetails({ details }: { details: EvidenceDetails['duplicate'] }) {
  const { origin } = details;
  return (
    <dl className="ev-details-list">
      <dt>From the copy</dt>
      <dd>
        <a href={`#/photo/${origin.photoId}`}>{origin.filename}</a>
        {' · '}
        <a href="#/duplicates">Duplicates</a>
      </dd>
      <dt>Its finding</dt>
      <dd>
        #{origin.evidenceId} ({origin.source}): {origin.summary}
      </dd>
      <dt>While</dt>
      <dd>the copies are confirmed as one photograph and that finding stays accepted</dd>
    </dl>
  );
}
