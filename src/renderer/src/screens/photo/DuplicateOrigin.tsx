/** Where a finding from a duplicate came from: the copy (a link to it) and its original finding. */
export function DuplicateOrigin({ details }: { details: Record<string, unknown> }) {
  const origin = (details.origin ?? {}) as Record<string, unknown>;
  const photoId = typeof origin.photoId === 'number' ? origin.photoId : null;
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v : null);
  return (
    <dl className="ev-details-list">
      <dt>From the copy</dt>
      <dd>
        {photoId != null ? <a href={`#/photo/${photoId}`}>{str(origin.filename) ?? `photo ${photoId}`}</a> : '?'}
        {' · '}
        <a href="#/duplicates">Duplicates</a>
      </dd>
      <dt>Its finding</dt>
      <dd>
        #{String(origin.evidenceId ?? '?')} ({str(origin.source) ?? '?'}): {str(origin.summary) ?? ''}
      </dd>
      <dt>While</dt>
      <dd>the copies are confirmed as one photograph and that finding stays accepted</dd>
    </dl>
  );
}
