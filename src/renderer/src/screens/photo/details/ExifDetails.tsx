/** A date from the file's metadata: the field and its raw value, what kind of date it is, and the dates left out. */
import type { EvidenceDetails } from '../../../../../shared/contract';

const ORIGIN: Record<NonNullable<EvidenceDetails['exif']['origin']>, string> = {
  capture: 'when a camera took the picture',
  scan: 'when the file was made (a scan): the picture is no later',
  modified: 'when the file was last saved (weak): the picture existed by then, if the clock was right',
};

export function ExifDetails({ details: d }: { details: EvidenceDetails['exif'] }) {
  return (
    <dl className="ev-details-list">
      <dt>Field</dt>
      <dd className="mono">
        {d.field}
        {d.raw ? ` = ${d.raw}` : ''}
      </dd>
      {d.origin && (
        <>
          <dt>It dates</dt>
          <dd>{ORIGIN[d.origin]}</dd>
        </>
      )}
      {d.reason && (
        <>
          <dt>Why</dt>
          <dd>{d.reason}</dd>
        </>
      )}
      {d.ignored?.map((why, i) => (
        <div key={i} className="fact-pair">
          <dt>Left out</dt>
          <dd>{why}</dd>
        </div>
      ))}
    </dl>
  );
}
