/** A date or named event read in the archivist's own notes: the words, their EDTF, and how they were read. */
import type { EvidenceDetails } from '../../../../../shared/contract';
import { HistorySource, USE_LABEL } from './OcrDetails';

export function NoteDetails({ details: d }: { details: EvidenceDetails['note'] }) {
  return (
    <dl className="ev-details-list">
      <dt>Read in the notes</dt>
      <dd className="ev-quote" data-testid="note-text">
        “{d.text}”
      </dd>
      {d.edtf && (
        <>
          <dt>EDTF</dt>
          <dd data-testid="note-edtf">{d.edtf}</dd>
        </>
      )}
      {d.use && (
        <>
          <dt>Dates</dt>
          <dd>
            the object’s use, not the picture: “{d.use.word}” marks {USE_LABEL[d.use.cue]}, so the picture is no later
          </dd>
        </>
      )}
      {d.history && <HistorySource history={d.history} />}
      {d.reason.trim() && (
        <>
          <dt>Reading</dt>
          <dd>{d.reason}</dd>
        </>
      )}
    </dl>
  );
}
